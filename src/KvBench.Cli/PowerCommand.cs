using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Cli;

/// <summary>
/// <c>crash --kill Power</c>: power-loss rounds on one row, its directory on the power-cut file system; for a server row,
/// the data directory of a server KvBench starts for the command, which the rounds kill and restart.
/// </summary>
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
        string directory = parseResult.GetRequiredValue(StoreArguments.Directory);
        bool tornCuts = PowerLossRounds.TornCutsFromEnvironment();
        CrashRoundsResult result = (StoreCatalog.Row(store) is ServerRow
            ? PowerLossRounds.RunOnServerAsync(KvBenchCli.Locate(), store, durability, directory, rounds, cutMoments, tornCuts)
            : PowerLossRounds.RunAsync(KvBenchCli.Locate(), store, durability, directory, rounds, cutMoments, tornCuts: tornCuts)).GetAwaiter().GetResult();
        parseResult.InvocationConfiguration.Output.WriteLine(CrashTable.ToMarkdown([result]));

        // Buffered promises only that a killed process loses nothing: losses under a power cut are what it is measured for.
        return result.Held || (durability == Core.Durability.Buffered && result.ReopenFailures.Count == 0) ? ExitCodes.Ok : ExitCodes.WritesLost;
    }
}
