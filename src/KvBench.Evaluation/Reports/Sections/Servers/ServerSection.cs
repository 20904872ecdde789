using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>
/// The server rows beside embedded ones (<c>kvbench adr --servers</c>, the evaluation's <c>-- --servers</c>): their
/// servers started by KvBench through the rows' hosts and always stopped, the loopback round trip through each row's
/// client, then at each tier in turn YCSB A to F, the thread sweep and the scale sweep by the workload section's own
/// suites and tables, and each server's own benchmark tool beside its row. Not in the default evaluation, which
/// compares embedded stores within its time.
/// </summary>
/// <param name="settings">The suites' lengths, the tiers, the embedded rows beside the servers, the round trips.</param>
public sealed class ServerSection(ServerSectionSettings settings) : AdrSection<ServerSectionSettings>(settings)
{
    /// <summary>The section's name, which <c>kvbench adr --sections</c> takes.</summary>
    public const string SectionName = "servers";

    /// <summary>The chapter the section writes.</summary>
    public const string Chapter = "Server rows";

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    private readonly List<string> _rows = [];

    private readonly List<string> _toolFailures = [];

    /// <summary>The settings for <paramref name="preset"/>.</summary>
    public ServerSection(AdrPreset preset = AdrPreset.Default)
        : this(ServerSectionSettings.For(preset))
    {
    }

    /// <inheritdoc/>
    public override string Name => SectionName;

    /// <summary>
    /// The workload suites over the server rows whose servers started and the embedded rows beside them, one per tier
    /// of <see cref="ServerSectionSettings.Tiers"/>, in order.
    /// </summary>
    [InResultsFile]
    public IReadOnlyList<WorkloadSection> Workloads => field ??= [.. Settings.Tiers.Select(tier => new WorkloadSection(Settings.Suites, new WorkloadScope
    {
        // A row that does not offer the tier (Garnet has no Synced) is left out of that tier's tables.
        Rows = () => [.. _rows.Where(row => StoreCatalog.Row(row).OpensAt(tier))],
        Durability = tier,
        ChartPrefix = $"servers-{tier.ToString().ToLowerInvariant()}-",
    }))];

    /// <summary>Each server row that was not measured, and why, one line each: its server could not be had or did not start.</summary>
    [InResultsFile]
    public IReadOnlyList<string> NotMeasured { get; set; } = [];

    /// <summary>The round trip of each server row measured, when the section ran.</summary>
    [InResultsFile]
    public IReadOnlyList<ServerRoundTrip>? RoundTrips { get; set; }

    /// <summary>Each server row beside its server's own benchmark, when the section ran.</summary>
    [InResultsFile]
    public IReadOnlyList<OwnBenchmarkComparison>? OwnBenchmarks { get; set; }

    /// <summary>Garnet over loopback against FASTER in-process at each tier both offer, when the section ran.</summary>
    [InResultsFile]
    public IReadOnlyList<LineageComparison> Lineage { get; set; } = [];

    /// <summary>The own benchmarks of <see cref="OwnBenchmarks"/>' rows and how each ran, one sentence per tool.</summary>
    [InResultsFile]
    public IReadOnlyList<(string Tool, string Method)> ToolMethods { get; set; } = [];

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var notMeasured = new List<string>();
        var started = new List<(ServerRow Row, RowHostGroup Host)>();
        try
        {
            foreach (ServerRow row in StoreCatalog.ServerRows)
            {
                if (row.UnavailableReason is { } reason)
                {
                    notMeasured.Add($"{row.Name} is not measured: {reason}");
                    continue;
                }

                context.Log($"Starting {row.Name}'s servers...");
                try
                {
                    started.Add((row, await StoreCatalog.StartHostsAsync([row.Name]).ConfigureAwait(false)));
                }
                catch (StoreUnavailableException error)
                {
                    notMeasured.Add($"{row.Name} is not measured: {error.Message}");
                }
            }

            NotMeasured = notMeasured;
            context.Took("Starting the servers");
            ServerRow[] servers = [.. started.Select(server => server.Row)];
            _rows.Clear();
            _rows.AddRange([.. servers.Select(row => row.Name), .. Settings.EmbeddedRows.Where(row => StoreCatalog.Row(row).IsAvailable)]);

            // Over loopback TCP the tier changes nothing a round trip does: it is timed on the server of the first tier the row offers.
            RoundTrips = [.. servers.Where(row => Settings.Tiers.Any(row.OpensAt))
                .Select(row => RoundTripTimer.Measure(row, Endpoint(row, Settings.Tiers.First(row.OpensAt)), Settings.RoundTrips))];
            context.Took("The loopback round trips");

            var comparisons = new List<OwnBenchmarkComparison>();
            var lineage = new List<LineageComparison>();
            foreach (WorkloadSection workloads in Workloads)
            {
                Durability tier = workloads.Scope.Durability;
                context.Log($"At {tier}:");
                await workloads.MeasureAsync(context).ConfigureAwait(false);
                lineage.AddRange(LineageComparison.From(workloads.ThreadSweep ?? [], Settings.Suites.SweepThreads, tier));
                foreach (ServerRow row in servers.Where(row => row.OwnBenchmark is not null && row.OpensAt(tier)))
                {
                    try
                    {
                        comparisons.AddRange(
                            await OwnBenchmarkRunner.CompareAsync(
                                row, Endpoint(row, tier), workloads.ThreadSweep ?? [], Settings.Suites, tier,
                                context.Log).ConfigureAwait(false));
                    }
                    catch (ServerBenchmarkException error)
                    {
                        _toolFailures.Add($"Server benchmark failed: {row.Name} at {tier}: {error.Message}");
                    }
                }

                context.Took($"The servers' own benchmarks at {tier}");
            }

            OwnBenchmarks = comparisons;
            Lineage = lineage;
            ToolMethods = [.. servers.Select(row => row.OwnBenchmark).OfType<ServerBenchmark>().Select(tool => (tool.Tool, tool.Method)).Distinct()];
        }
        finally
        {
            await StopAsync(started.Select(server => server.Host)).ConfigureAwait(false);
            context.Took("Stopping the servers");
        }
    }

    /// <summary>The workload runs' problems, and "Server benchmark failed: ..." for each tool that failed.</summary>
    public override IReadOnlyList<string> Problems() => [.. Workloads.SelectMany(workloads => workloads.Problems()), .. _toolFailures];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (RoundTrips is null && NotMeasured.Count == 0)
        {
            return;
        }

        StringBuilder output = markdown.Output;
        output.AppendLine(s_numbers, $"## {Chapter}").AppendLine();
        output.AppendLine(
            s_numbers,
            $"The server rows ({string.Join(", ", StoreCatalog.ServerNames)}) behind the same contract, each on a " +
                $"server from Debian's packages (installed by KvBench when missing) that KvBench started for this " +
                $"section on a free loopback port, in a data directory of its own, and stopped after it; beside them " +
                $"{(Settings.EmbeddedRows.Count > 1
                    ? $"{string.Join(", ", Settings.EmbeddedRows.SkipLast(1))} and {Settings.EmbeddedRows[^1]}"
                    : string.Join(string.Empty, Settings.EmbeddedRows))}" +
                $", in the client's process. Every row runs at {string.Join(", then at ", Settings.Tiers)}, each " +
                $"tier a chapter of its own below.").AppendLine();
        foreach (string line in NotMeasured)
        {
            output.AppendLine(s_numbers, $"- {line}");
        }

        if (NotMeasured.Count > 0)
        {
            output.AppendLine();
        }

        if (RoundTrips is { Count: > 0 })
        {
            output.AppendLine("### The network between client and server").AppendLine();
            output.AppendLine(
                "Each server row's client and server (or a cluster's members) are one machine apart by loopback TCP, " +
                    "replicated as the Replication column says. A round trip that asks the server for nothing, " +
                    "through the row's own client on one connection, one at a time: the least every call of the row " +
                    "costs beyond the in-process rows.").AppendLine();
            ServerTables.RoundTrips(RoundTrips).WriteTo(output);
        }

        foreach (WorkloadSection workloads in Workloads.Where(workloads => workloads.ThreadSweep is not null))
        {
            Durability tier = workloads.Scope.Durability;
            output.AppendLine(s_numbers, $"## {Chapter} at {tier}").AppendLine();
            output.AppendLine(s_numbers, $"At {tier}, {TierSentence(tier)}").AppendLine();
            WriteServerSettings(output, tier);
            output.AppendLine(
                "In the tables below, a server row's CPU/op and syscalls/op are the client's process alone: its " +
                    "server's work is in a process of its own and not counted. A server row's bytes on disk are not " +
                    "counted either (\"-\"): its files are the server's, in a data directory every store on that " +
                    "server shares.").AppendLine();
            workloads.WriteTables(markdown);
            WriteOwnBenchmarks(output, [.. (OwnBenchmarks ?? []).Where(comparison => comparison.Durability == tier)]);
            WriteLineage(output, [.. Lineage.Where(comparison => comparison.Durability == tier)]);
        }
    }

    /// <summary>The rows beside their servers' own tools at one tier, how each tool ran and its commands.</summary>
    private void WriteOwnBenchmarks(StringBuilder output, IReadOnlyList<OwnBenchmarkComparison> comparisons)
    {
        if (comparisons.Count == 0)
        {
            return;
        }

        output.AppendLine("### Each server's own benchmark beside its row").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Against the same server, after the row's runs, with values of {WorkloadSpec.DefaultValueBytes} bytes, " +
                $"a keyspace of {Settings.Suites.Records:N0} records loaded beforehand, as many connections as the " +
                $"row's threads and the same tier; the row's figures are its write-only (Put) and read-only (Get) " +
                $"runs of the thread sweep above. Row ÷ tool below 1: the .NET client and the row's way of storing " +
                $"cost that much of the server's own client's rate. The two ran one after the other, not at once, so " +
                $"at Synced, where a write waits for the device, a Put ratio also holds how the device's flushes " +
                $"differed between the two moments.").AppendLine();
        foreach ((string tool, string method) in ToolMethods)
        {
            output.AppendLine(s_numbers, $"- {tool}: {method}.");
        }

        output.AppendLine();
        ServerTables.OwnBenchmarks(comparisons).WriteTo(output);
        output.AppendLine("<details><summary>The tools' commands</summary>").AppendLine();
        output.AppendLine("```bash");
        foreach (string command in comparisons.SelectMany(comparison => comparison.Commands))
        {
            output.AppendLine(command);
        }

        output.AppendLine("```").AppendLine().AppendLine("</details>").AppendLine();
    }

    /// <summary>Garnet against FASTER at one tier, from the thread sweep above, when both ran at it.</summary>
    private static void WriteLineage(StringBuilder output, IReadOnlyList<LineageComparison> comparisons)
    {
        if (comparisons.Count == 0)
        {
            return;
        }

        output.AppendLine(s_numbers, $"### {LineageComparison.ServerRow} over loopback against {LineageComparison.InProcessRow} in-process").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Garnet stores in Tsavorite, the maintained successor of the FASTER engine that the " +
                $"{LineageComparison.InProcessRow} row runs in the client's own process. Both rows' write-only (Put) " +
                $"and read-only (Get) runs of the thread sweep above: the same {WorkloadSpec.DefaultValueBytes}-byte " +
                $"values, keyspace, threads and tier. The Gets are the like-for-like line: Garnet ÷ FASTER is what " +
                $"the server, its protocol and the loopback cost of the engine's in-process rate. The Puts are not " +
                $"the same work at the same tier: Garnet's reply waits for its append-only file's write (what its " +
                $"documentation says a killed server keeps; the kill rounds test it), while FASTER's Put stays in " +
                $"this process's memory until a checkpoint (`Flush`), and a crash of the process loses it.").AppendLine();
        ServerTables.Lineage(comparisons).WriteTo(output);
    }

    /// <summary>What the tier means, in one sentence; each server's own setting for it is listed apart.</summary>
    private static string TierSentence(Durability durability) => durability == Durability.Synced
        ? "a write is acknowledged once flushed to the device (the embedded rows flush every commit). A synced write " +
            "waits for the device: its rate says as much about the device's flushes at that moment as about the row."
        : "a write is acknowledged once in the operating system's cache or the server's memory (the embedded rows commit without a flush).";

    /// <summary>Each measured server row's own setting for <paramref name="tier"/>, and the rows left out because they do not offer it.</summary>
    private void WriteServerSettings(StringBuilder output, Durability tier)
    {
        ServerRow[] servers = [.. _rows.Select(StoreCatalog.Row).OfType<ServerRow>()];
        foreach (ServerRow row in servers.Where(row => row.OpensAt(tier)))
        {
            output.AppendLine(s_numbers, $"- {row.Name}: {row.Promise(tier).Setting}; replication: {row.Replication}.");
        }

        foreach (ServerRow row in servers.Where(row => !row.OpensAt(tier)))
        {
            output.AppendLine(s_numbers, $"- {row.Name} is not in this tier's tables: it offers {row.Declared.Durability} only.");
        }

        output.AppendLine();
    }

    /// <summary>The endpoint of <paramref name="row"/>'s server at <paramref name="tier"/>, which it has once started.</summary>
    private static string Endpoint(ServerRow row, Durability tier) =>
        row.EndpointFor(tier) ?? throw new InvalidOperationException($"{row.Name}'s server was started, yet the row names no endpoint at {tier}.");

    /// <summary>Stops every server started, even when stopping one of them fails.</summary>
    private static async Task StopAsync(IEnumerable<RowHostGroup> hosts)
    {
        List<Exception> errors = [];
        foreach (RowHostGroup host in hosts.Reverse())
        {
            try
            {
                await host.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception error)
            {
                errors.Add(error);
            }
        }

        if (errors.Count > 0)
        {
            throw new AggregateException("Stopping the server rows' servers failed.", errors);
        }
    }
}
