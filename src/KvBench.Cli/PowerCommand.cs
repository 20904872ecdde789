using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PowerLoss;

namespace KvBench.Cli;

/// <summary><c>crash --kill Power</c>: power-loss rounds on one embedded row, its directory on the power-cut file system.</summary>
internal static class PowerCommand
{
    public static int CutPower(ParseResult parseResult, string store, int rounds, int cutMoments)
    {
        if (PowerCutMount.Unavailable() is { } reason)
        {
            parseResult.InvocationConfiguration.Error.WriteLine(reason);
            return ExitCodes.Error;
        }

        Core.Durability durability = parseResult.GetValue(StoreArguments.Durability);
        CrashRoundsResult result = PowerLossRounds.RunAsync(
            KvBenchCli.Locate(),
            store,
            durability,
            parseResult.GetRequiredValue(StoreArguments.Directory),
            rounds,
            cutMoments,
            tornCuts: PowerLossRounds.TornCutsFromEnvironment()).GetAwaiter().GetResult();
        parseResult.InvocationConfiguration.Output.WriteLine(CrashTable.ToMarkdown([result]));

        // Buffered promises only that a killed process loses nothing: losses under a power cut are what it is measured for.
        return result.Held || (durability == Core.Durability.Buffered && result.ReopenFailures.Count == 0) ? ExitCodes.Ok : ExitCodes.WritesLost;
    }
}
