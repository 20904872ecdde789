using System.CommandLine;

using KvBench.Evaluation.Reports.Sections.PowerLoss;

namespace KvBench.Cli;

/// <summary>
/// <c>crash --kill Power</c>: power-loss rounds on one row, its directory on the power-cut file system; for a server row,
/// the data directory of a server KvBench starts for the command, which the rounds kill and restart.
/// </summary>
internal static class PowerCommand
{
    public static int CutPower(ParseResult parseResult, string store, int rounds, int cutMoments)
    {
        if (PowerLossSection.UnavailableHere() is { } reason)
        {
            parseResult.InvocationConfiguration.Error.WriteLine(reason);
            return ExitCodes.Error;
        }

        return CrashCommands.Rounds(
            parseResult, (cli, durability, directory) => PowerLossSection.RunAloneAsync(cli, store, durability, directory, rounds, cutMoments));
    }
}
