using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections.Survival;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.ServerKills;

/// <summary>
/// Server kill rounds on every server row available here, at both tiers: a writer process writes to a server KvBench
/// started for the section alone, the server's process tree is killed with SIGKILL under it, the server is started
/// again on its data directory, and every acknowledged write is read back. A loss at Synced, a loss from further back
/// than the Buffered setting allows, a torn record or a failed reopen fails the run. The same number of rounds kill
/// the writer instead, the server running on (<see cref="WriterKills"/>), for the table of what every row survives
/// (<see cref="SurvivalSection"/>). Needs the CLI.
/// </summary>
public sealed class ServerKillRoundsSection : AdrSection
{
    /// <summary>The rounds per row and tier for <paramref name="preset"/>, unless <c>KVBENCH_CRASH_ROUNDS</c> says otherwise (the crash rounds' own).</summary>
    public ServerKillRoundsSection(AdrPreset preset = AdrPreset.Default) =>
        Rounds = CrashRounds.RoundsFromEnvironment(preset.ProbeSettings().CrashRounds);

    /// <inheritdoc/>
    public override string Name => "serverkills";

    /// <summary>Rounds per row and tier.</summary>
    [InResultsFile]
    public int Rounds { get; private set; }

    /// <summary>Server kill rounds per row and tier; <see langword="null"/> when no second process could be started.</summary>
    [InResultsFile]
    public IReadOnlyList<CrashRoundsResult>? Results { get; set; }

    /// <summary>Writer kill rounds on the same servers, per row and tier; <see langword="null"/> when no second process could be started.</summary>
    [InResultsFile]
    public IReadOnlyList<CrashRoundsResult>? WriterKills { get; set; }

    /// <summary>The server rows left out, each with why (<see cref="OneServerRows.Plan"/>).</summary>
    [InResultsFile]
    public IReadOnlyList<ServerLeftOut> LeftOut { get; private set; } = [];

    /// <summary>
    /// <paramref name="rounds"/> server kills on <paramref name="store"/> at <paramref name="durability"/>, as
    /// <c>kvbench crash --kill Server</c> runs them on a server KvBench starts for them and stops after (its data
    /// deleted), also when they fail: the section's table, and whether the rounds lost more than the server's setting
    /// allows.
    /// </summary>
    public static async Task<KillRoundsAlone> RunAloneAsync(
        KvBenchCli cli, string store, Durability durability, string directory, int rounds, int killMoments)
    {
        await using PrivateServer server = await PrivateServer.StartAsync(store, durability).ConfigureAwait(false);
        CrashRoundsResult result = await CrashRounds.RunOnServerAsync(cli, server, directory, rounds, killMoments).ConfigureAwait(false);
        return new KillRoundsAlone(ServerKillTable.ToMarkdown([result]), result, ServerKillVerdict.Broken(result));
    }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Cli is null)
        {
            return;
        }

        context.Log($"Server kill rounds: {Rounds} per server row and tier...");
        (IReadOnlyList<(ServerRow Row, Durability Durability)> planned, IReadOnlyList<ServerLeftOut> leftOut) = OneServerRows.Plan();
        var results = new List<CrashRoundsResult>();
        var writerKills = new List<CrashRoundsResult>();
        foreach (IGrouping<ServerRow, (ServerRow Row, Durability Durability)> row in planned.GroupBy(round => round.Row))
        {
            foreach (Durability durability in row.Select(round => round.Durability))
            {
                await using PrivateServer server = await PrivateServer.StartAsync(row.Key.Name, durability).ConfigureAwait(false);
                string storeName = Path.Combine(context.WorkDirectory, "serverkills", $"{row.Key.Name}-{durability}");
                writerKills.Add(
                    await CrashRounds.RunWriterKillsOnServerAsync(
                        context.Cli, server, $"{storeName}-writer", Rounds, killMoments: Rounds).ConfigureAwait(false));
                results.Add(await CrashRounds.RunOnServerAsync(context.Cli, server, storeName, Rounds, killMoments: Rounds).ConfigureAwait(false));
            }

            context.Took($"Server and writer kill rounds on {row.Key.Name}");
        }

        Results = results;
        WriterKills = writerKills;
        LeftOut = leftOut;
    }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() =>
    [
        .. (Results ?? []).Where(ServerKillVerdict.IsNewFailure).Select(ServerKillVerdict.Problem),
        .. (WriterKills ?? []).Where(result => !result.Held).Select(result => $"Writer kill rounds on a server failed: {result.Outcome}"),
    ];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is not { Count: > 0 })
        {
            return;
        }

        markdown.Within(AdrSections.ServerChecksChapter);
        markdown.Output.AppendLine("### A server killed").AppendLine();
        markdown.Output.Append(ServerKillTable.ToMarkdown(Results));
        markdown.Output.AppendLine(
            "Each round starts a writer process that puts records one at a time through the row's client and " +
                "acknowledges each once `Put` returned, then kills the server's whole process tree with SIGKILL at a " +
                "random moment (reproducible) up to 250 ms after the first acknowledgement, as a crash of the server " +
                "would end it (no shutdown). The server, KvBench's own for this section alone, is started again on " +
                "the same data directory and port and recovers from what the kill left; every acknowledged record is " +
                "read back through it. Lost counts acknowledged records missing or with other bytes; \"within\" is " +
                "how long before the kill the first lost record had been acknowledged. What a setting may lose is " +
                "its documentation's promise, which speaks of a crash of the machine or of the server as each says; " +
                "a kill of the server process leaves what it had handed to the operating system in the page cache, " +
                "so a kill can only show what the server held in its own memory. `kvbench crash --kill Server " +
                "--store <row> --durability <tier> --dir <name> --rounds N` runs more; `KVBENCH_CRASH_ROUNDS` sets " +
                "the rounds here.").AppendLine();
        foreach (ServerLeftOut left in LeftOut)
        {
            markdown.Output.AppendLine($"Not measured: {left.Row.Name}: {left.Reason}.").AppendLine();
        }
    }
}
