using System.CommandLine;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Crash;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Evaluation.Reports.Sections.ServerKills;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Cli;

/// <summary><c>crash</c>: crash rounds on one row, its writer killed or its server; <c>crash-writer</c>: the process that writes through them.</summary>
internal static class CrashCommands
{
    public static Command Crash()
    {
        Option<int> rounds = new Option<int>("--rounds")
        {
            Description = "Writers (or servers) killed, one per round.",
            DefaultValueFactory = static _ => 50,
            HelpName = "count",
        }.AtLeast(1);
        var killMoments = new Option<int>("--kill-moments")
        {
            Description = "Which kill moments: the same number gives the same moments.",
            DefaultValueFactory = static _ => 20_241_122,
            HelpName = "number",
        };
        var kill = new Option<CrashKill>("--kill")
        {
            Description = "What a round kills: the Writer, a server row's Server, or the Power.",
            DefaultValueFactory = static _ => CrashKill.Writer,
        };
        var command = new Command("crash", "Kills a writer (or its server) round after round and checks every acknowledged record.")
        {
            rounds, killMoments, kill,
        };
        StoreArguments.AddTo(command);
        command.Validators.Add(result =>
        {
            if (result.GetValue(kill) == CrashKill.Writer
                || result.GetValue(StoreArguments.Store) is not { } name
                || StoreArguments.UnknownStore(name) is not null)
            {
                return;
            }

            CrashKill killed = result.GetValue(kill);
            string canonical = StoreArguments.CanonicalName(name);
            if (killed == CrashKill.Power && PowerLossSection.Rows().Contains(canonical))
            {
                return;
            }

            if (StoreCatalog.Row(name) is not ServerRow row)
            {
                result.AddError(killed == CrashKill.Power
                    ? $"--kill Power cuts the power under an embedded row's files " +
                        $"({string.Join(", ", PowerLossSection.Rows())}) or a server's " +
                        $"data directory ({string.Join(", ", StoreCatalog.ServerNames)}); {canonical} is neither."
                    : $"--kill Server kills a server row's server ({string.Join(", ", StoreCatalog.ServerNames)}); {canonical} has none.");
            }
            else if (!row.IsOneProcess)
            {
                result.AddError($"--kill {killed} kills one server process; {row.Name} runs a cluster, whose members `kvbench cluster fault` kills.");
            }
            else if (killed == CrashKill.Power && row.PowerCutNotModelled is { } notModelled)
            {
                result.AddError($"--kill Power leaves {row.Name} out: {notModelled}.");
            }
            else if (row.UserEndpoint is { } endpoint)
            {
                result.AddError(
                    $"--kill {killed} kills only a server KvBench starts itself; {row.EndpointVariable} points " +
                        $"{row.Name} at a server of your own ({endpoint}). Unset it to run the rounds on KvBench's " +
                        $"own.");
            }
        });
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string store = StoreArguments.CanonicalName(parseResult.GetRequiredValue(StoreArguments.Store));
            int count = parseResult.GetValue(rounds);
            int moments = parseResult.GetValue(killMoments);
            return parseResult.GetValue(kill) switch
            {
                CrashKill.Server => Rounds(
                    parseResult, (cli, durability, directory) => ServerKillRoundsSection.RunAloneAsync(cli, store, durability, directory, count, moments)),
                CrashKill.Power => PowerCommand.CutPower(parseResult, store, count, moments),
                _ => Rounds(
                    parseResult, (cli, durability, directory) => CrashRoundsSection.RunAloneAsync(cli, store, durability, directory, count, moments)),
            };
        });
        return command;
    }

    public static Command Writer()
    {
        var name = new Option<string>("--name") { Description = "Whose numbered records to write.", Required = true };
        var ackBeforeFlush = new Option<bool>(CrashWriter.AckBeforeFlushOption)
        {
            Description = "Acknowledge when Put returns even where the row needs a Flush (a control that must lose records).",
        };
        var command = new Command(CrashWriter.CommandName, "Internal: the writer crash rounds kill; prints `ack N T` once record N is acknowledged.")
        {
            name, ackBeforeFlush,
        };
        command.Hidden = true;
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            CrashWriter.Run(
                CrashWriter.Options(
                    parseResult.GetRequiredValue(StoreArguments.Directory),
                    parseResult.GetValue(StoreArguments.Durability),
                    parseResult.GetValue(StoreArguments.Endpoint)),
                parseResult.GetRequiredValue(StoreArguments.Store),
                parseResult.GetRequiredValue(name),
                parseResult.InvocationConfiguration.Output,
                parseResult.GetValue(ackBeforeFlush));
            return ExitCodes.Ok;
        });
        return command;
    }

    /// <summary>
    /// Runs kill rounds that <paramref name="run"/> starts with the CLI, the tier and the directory given, and prints
    /// their table: <see cref="ExitCodes.WritesLost"/> when they broke what the row promises.
    /// </summary>
    internal static int Rounds(ParseResult parseResult, Func<KvBenchCli, Durability, string, Task<KillRoundsAlone>> run)
    {
        KillRoundsAlone ran = run(
            KvBenchCli.Locate(),
            parseResult.GetValue(StoreArguments.Durability),
            parseResult.GetRequiredValue(StoreArguments.Directory)).GetAwaiter().GetResult();
        parseResult.InvocationConfiguration.Output.WriteLine(ran.Markdown);
        return ran.WritesLost ? ExitCodes.WritesLost : ExitCodes.Ok;
    }
}
