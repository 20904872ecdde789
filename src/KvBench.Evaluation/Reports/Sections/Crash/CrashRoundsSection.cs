using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Results;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections.Crash;

/// <summary>
/// Crash rounds on every row that keeps files, at every tier it offers: a writer killed with SIGKILL, then every
/// acknowledged record read back. A lost or torn record, or a reopen that failed, fails the run. Needs the CLI.
/// </summary>
public sealed class CrashRoundsSection : AdrSection
{
    /// <summary>The rounds per row and tier for <paramref name="preset"/>, unless <c>KVBENCH_CRASH_ROUNDS</c> says otherwise.</summary>
    public CrashRoundsSection(AdrPreset preset = AdrPreset.Default) =>
        Rounds = CrashRounds.RoundsFromEnvironment(preset.ProbeSettings().CrashRounds);

    /// <inheritdoc/>
    public override string Name => "crash";

    /// <summary>Rounds per row and tier.</summary>
    [InResultsFile]
    public int Rounds { get; private set; }

    /// <summary>Crash rounds per row and tier; <see langword="null"/> when no second process could be started.</summary>
    [InResultsFile]
    public IReadOnlyList<CrashRoundsResult>? Results { get; set; }

    /// <summary>
    /// <paramref name="rounds"/> writer kills on <paramref name="store"/> at <paramref name="durability"/>, as
    /// <c>kvbench crash</c> runs them: the section's table, and whether a round lost or tore an acknowledged record or a
    /// reopen failed.
    /// </summary>
    public static async Task<KillRoundsAlone> RunAloneAsync(
        KvBenchCli cli, string store, Durability durability, string directory, int rounds, int killMoments)
    {
        CrashRoundsResult result = await CrashRounds.RunAsync(cli, store, durability, directory, rounds, killMoments).ConfigureAwait(false);
        return new KillRoundsAlone(CrashTable.ToMarkdown([result]), result, WritesLost: !result.Held);
    }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Cli is null)
        {
            return;
        }

        context.Log($"Crash rounds: {Rounds} per row and tier...");
        string workDirectory = Path.Combine(context.WorkDirectory, "crash");
        var results = new List<CrashRoundsResult>();
        foreach (string name in StoreCatalog.AvailableNames)
        {
            DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
            foreach (Durability durability in Enum.GetValues<Durability>().Where(tier => offered != DurabilityTiers.None && offered.Offers(tier)))
            {
                string directory = Path.Combine(workDirectory, $"{name}-{durability}");
                try
                {
                    results.Add(await CrashRounds.RunAsync(context.Cli, name, durability, directory, Rounds, killMoments: Rounds).ConfigureAwait(false));
                }
                finally
                {
                    AdrContext.TryDelete(directory);
                }
            }

            context.Took($"Crash rounds on {name}");
        }

        Results = results;
    }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() =>
    [
        .. (Results ?? []).Where(result => !result.Held).Select(result => $"Crash rounds failed: {result.Outcome}"),
    ];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is not { Count: > 0 })
        {
            return;
        }

        // Under the capabilities section's chapter, which comes just before in the whole file; alone, it writes the heading.
        markdown.Within(AdrSections.DurabilityChapter);
        markdown.Output.AppendLine("### Crash rounds").AppendLine();
        markdown.Output.Append(CrashTable.ToMarkdown(Results));
        markdown.Output.AppendLine(
            "Each round starts a writer process that puts records one at a time and acknowledges each after `Put` " +
                "returned (after `Flush` for a row that holds writes in memory until then), kills it with SIGKILL at " +
                "a random moment (reproducible) up to 250 ms after its first acknowledgement, reopens the store and " +
                "reads every acknowledged record back: Lost counts those missing or with other bytes; Torn counts " +
                "records written but not yet acknowledged that came back with bytes that are neither nothing nor the " +
                "record. `kvbench crash --store <row> --durability <tier> --dir <dir> --rounds N` runs more; " +
                "`KVBENCH_CRASH_ROUNDS` sets the rounds here.").AppendLine();
    }
}
