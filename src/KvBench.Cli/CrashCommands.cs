using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;

namespace KvBench.Cli;

/// <summary><c>crash</c>: crash rounds on one row; <c>crash-writer</c>: the process they kill.</summary>
internal static class CrashCommands
{
    public static Command Crash()
    {
        var rounds = new Option<int>("--rounds") { Description = "Writers killed, one per round.", DefaultValueFactory = static _ => 50 };
        var seed = new Option<int>("--seed") { Description = "Seeds the moments the writers are killed.", DefaultValueFactory = static _ => 20_241_122 };
        rounds.Validators.Add(static result =>
        {
            if (result.GetValueOrDefault<int>() <= 0)
            {
                result.AddError("--rounds must be at least 1.");
            }
        });
        var command = new Command("crash", "Kills a writer process with SIGKILL at a random moment, round after round, reopens the store and checks that every acknowledged record is there with its bytes.")
        {
            rounds, seed,
        };
        StoreArguments.AddTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string store = StoreArguments.CanonicalName(parseResult.GetRequiredValue(StoreArguments.Store));
            CrashRoundsResult result = CrashRounds.RunAsync(
                KvBenchCli.Locate(),
                store,
                parseResult.GetValue(StoreArguments.Durability),
                parseResult.GetRequiredValue(StoreArguments.Directory),
                parseResult.GetValue(rounds),
                parseResult.GetValue(seed)).GetAwaiter().GetResult();
            parseResult.InvocationConfiguration.Output.WriteLine(CrashTable.ToMarkdown([result]));
            return result.Held ? ExitCodes.Ok : ExitCodes.VerificationFailed;
        });
        return command;
    }

    public static Command Writer()
    {
        var name = new Option<string>("--name") { Description = "Whose fixed-seed records to write.", Required = true };
        var ackBeforeFlush = new Option<bool>(CrashWriter.AckBeforeFlushOption) { Description = "Acknowledge when Put returns even where the row needs a Flush (a control that must lose records)." };
        var command = new Command(CrashWriter.CommandName, "Used by crash rounds: writes records one Put each and prints `ack N` once record N is acknowledged, until killed.")
        {
            name, ackBeforeFlush,
        };
        command.Hidden = true;
        StoreArguments.AddTo(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            CrashWriter.Run(
                parseResult.GetRequiredValue(StoreArguments.Store),
                parseResult.GetRequiredValue(StoreArguments.Directory),
                parseResult.GetValue(StoreArguments.Durability),
                parseResult.GetRequiredValue(name),
                parseResult.InvocationConfiguration.Output,
                parseResult.GetValue(ackBeforeFlush));
            return ExitCodes.Ok;
        });
        return command;
    }
}
