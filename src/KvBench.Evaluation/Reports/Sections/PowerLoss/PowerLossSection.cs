using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Results;
using KvBench.Stores;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// Power-loss rounds on every embedded row that keeps files, at every tier it offers (<see cref="PowerLossRounds"/>):
/// a writer on the power-cut file system killed and the power cut, then every acknowledged record read back from what
/// was flushed. A Synced row that loses, tears or cannot reopen is a problem of the run; a Buffered row may lose, which
/// is what its tier means. Where the file system cannot run, it says why in one line and measures nothing. With the
/// server rows (<c>kvbench adr --servers</c>), each one-process server row runs the rounds too at every tier it offers,
/// its data directory on the file system (<see cref="PowerLossRounds.RunOnServerAsync"/>); clusters are left out, with why.
/// </summary>
public sealed class PowerLossSection : AdrSection
{
    /// <summary>The section's name, as <c>kvbench adr --sections</c> takes it.</summary>
    public const string SectionName = "powerloss";

    /// <summary>
    /// The rounds per row and tier for <paramref name="preset"/> (those of the crash rounds), unless <c>KVBENCH_POWER_ROUNDS</c> says otherwise.
    /// </summary>
    /// <param name="preset">How hard the run pushes.</param>
    /// <param name="servers">Whether the run includes the server rows, whose servers the rounds then start.</param>
    public PowerLossSection(AdrPreset preset = AdrPreset.Default, bool servers = false)
    {
        Rounds = PowerLossRounds.RoundsFromEnvironment(preset.ProbeSettings().CrashRounds);
        Servers = servers;
    }

    /// <inheritdoc/>
    public override string Name => SectionName;

    /// <inheritdoc/>
    /// <remarks>
    /// The rounds mount a FUSE file system, which needs root and <c>/dev/fuse</c>, and would add their time to the default
    /// evaluation: <c>kvbench adr --sections crash powerloss survives</c> runs them.
    /// </remarks>
    public override bool RunsOnlyWhenNamed => true;

    /// <summary>Rounds per row and tier.</summary>
    [InResultsFile]
    public int Rounds { get; private set; }

    /// <summary>Whether the one-process server rows run the rounds too.</summary>
    [InResultsFile]
    public bool Servers { get; private set; }

    /// <summary>The server rows left out, each with why (<see cref="OneServerRows.Plan"/>); empty without <see cref="Servers"/>.</summary>
    [InResultsFile]
    public IReadOnlyList<ServerLeftOut> LeftOut { get; private set; } = [];

    /// <summary>Power-loss rounds per row and tier; <see langword="null"/> when they could not run.</summary>
    [InResultsFile]
    public IReadOnlyList<CrashRoundsResult>? Results { get; private set; }

    /// <summary>Why the rounds could not run here, or <see langword="null"/>.</summary>
    [InResultsFile]
    public string? Unavailable { get; private set; }

    /// <summary>Why the power cannot be cut here, in one line, or <see langword="null"/> when it can.</summary>
    public static string? UnavailableHere() => PowerCutMount.Unavailable();

    /// <summary>The embedded rows available here whose power can be cut: those that keep files.</summary>
    public static IReadOnlyList<string> Rows() => [.. PowerLossRounds.Tiers().Select(tier => tier.Store).Distinct()];

    /// <summary>
    /// <paramref name="rounds"/> power cuts under <paramref name="store"/> at <paramref name="durability"/>, as
    /// <c>kvbench crash --kill Power</c> runs them (for a server row, under the data directory of a server KvBench starts
    /// for them): the section's table, and whether the rounds broke the tier's promise.
    /// </summary>
    public static async Task<KillRoundsAlone> RunAloneAsync(
        KvBenchCli cli, string store, Durability durability, string directory, int rounds, int cutMoments)
    {
        bool tornCuts = PowerLossRounds.TornCutsFromEnvironment();
        CrashRoundsResult result = await (StoreCatalog.Row(store) is ServerRow
            ? PowerLossRounds.RunOnServerAsync(cli, store, durability, directory, rounds, cutMoments, tornCuts)
            : PowerLossRounds.RunAsync(cli, store, durability, directory, rounds, cutMoments, tornCuts: tornCuts)).ConfigureAwait(false);

        // Buffered promises only that a killed process loses nothing: losses under a power cut are what it is measured for.
        bool held = result.Held || (durability == Durability.Buffered && result.ReopenFailures.Count == 0);
        return new KillRoundsAlone(CrashTable.ToMarkdown([result]), result, WritesLost: !held);
    }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Cli is null)
        {
            return;
        }

        if (PowerCutMount.Unavailable() is { } reason)
        {
            Unavailable = reason;
            context.Log(reason);
            return;
        }

        context.Log($"Power-loss rounds: {Rounds} per row and tier...");
        string workDirectory = Path.Combine(context.WorkDirectory, "powerloss");
        var results = new List<CrashRoundsResult>();
        foreach ((string store, Durability durability) in PowerLossRounds.Tiers())
        {
            string directory = Path.Combine(workDirectory, $"{store}-{durability}");
            try
            {
                results.Add(await PowerLossRounds.RunAsync(context.Cli, store, durability, directory, Rounds, cutMoments: Rounds).ConfigureAwait(false));
            }
            finally
            {
                AdrContext.TryDelete(directory);
            }

            context.Took($"Power-loss rounds on {store} at {durability}");
        }

        if (Servers)
        {
            (IReadOnlyList<(ServerRow Row, Durability Durability)> planned, LeftOut) = OneServerRows.Plan(powerCut: true);
            foreach ((ServerRow row, Durability durability) in planned)
            {
                string directory = Path.Combine(workDirectory, $"{row.Name}-{durability}");
                try
                {
                    results.Add(await PowerLossRounds.RunOnServerAsync(context.Cli, row.Name, durability, directory, Rounds, cutMoments: Rounds)
                        .ConfigureAwait(false));
                }
                finally
                {
                    AdrContext.TryDelete(directory);
                }

                context.Took($"Power-loss rounds on {row.Name}'s server at {durability}");
            }
        }

        Results = results;
    }

    /// <summary>Whether a result broke its tier's promise: Synced lost, tore or failed to reopen; any tier failed to reopen.</summary>
    public static bool Broken(CrashRoundsResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return result.ReopenFailures.Count > 0 || (result.Durability == Durability.Synced && !result.Held);
    }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() =>
    [
        .. (Results ?? []).Where(Broken).Select(result => $"Power-loss rounds failed: {result.Outcome}"),
    ];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Unavailable is not null)
        {
            markdown.Within(AdrSections.DurabilityChapter);
            markdown.Output.AppendLine("### Power-loss rounds").AppendLine();
            markdown.Output.AppendLine($"Not measured: {Unavailable}").AppendLine();
            return;
        }

        if (Results is not { Count: > 0 })
        {
            return;
        }

        markdown.Within(AdrSections.DurabilityChapter);
        markdown.Output.AppendLine("### Power-loss rounds").AppendLine();
        markdown.Output.Append(CrashTable.ToMarkdown(Results));
        markdown.Output.AppendLine(
            "Each round mounts the store's directory through the power-cut file system (a FUSE file system that keeps only what was flushed: "
            + "a file's data by fsync, fdatasync or a synchronous write, a name by its directory's fsync), starts a writer that acknowledges "
            + "each record after `Put` returned, kills it at a random moment up to 250 ms after its first acknowledgement and cuts the power: "
            + "every unflushed write is dropped but a random prefix, the next one torn at a sector. The store is reopened on what was flushed "
            + "and every acknowledged record read back. At Buffered a loss is what the tier allows; at Synced it is a broken promise. "
            + "`kvbench crash --kill Power --store <row> --durability <tier> --dir <dir> --rounds N` runs more; `KVBENCH_POWER_ROUNDS` sets "
            + "the rounds here.").AppendLine();
        if (Results.Any(result => StoreCatalog.Row(result.Store) is ServerRow))
        {
            markdown.Output.AppendLine(
                "A server row's round puts the server's data directory on the file system: the server is initialised "
                + "and started there, and what it wrote then made durable; a writer puts records through it; the "
                + "server's process tree is killed with SIGKILL and the power cut; the file system is mounted again over "
                + "what was flushed, the server started again on the same data directory, and every acknowledged record "
                + "read back through it. A server that does not start again counts as a failed reopen, and ends that "
                + "row's rounds.").AppendLine();
        }

        foreach (ServerLeftOut left in LeftOut)
        {
            markdown.Output.AppendLine($"Not measured: {left.Row.Name}: {left.Reason}.").AppendLine();
        }
    }
}
