using System.CommandLine;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Cli;

/// <summary>
/// The hidden worker commands, which kvbench and its tests start as second processes and a user never types:
/// <c>mp-worker</c>, one side of a two-process check, and <c>contend-worker</c>.
/// </summary>
internal static class WorkerCommand
{
    public static Command Create()
    {
        var name = new Option<string>("--name") { Description = "This worker's name; it writes that name's numbered records.", Required = true };
        var peer = new Option<string>("--peer") { Description = "The other worker's name, whose records this one reads.", Required = true };
        Option<int> pause = new Option<int>("--pause-ms")
        {
            Description = "Pause after each write and read; 0 writes as fast as the store allows.",
            DefaultValueFactory = static _ => 5,
        }.AtLeast(0);
        Option<int> minimumWrites = new Option<int>("--min-writes") { Description = "Records to write before a stop request is honoured." }.AtLeast(0);
        var noFlush = new Option<bool>("--no-flush") { Description = "Do not flush after each write (what does an acknowledged, unflushed write survive?)." };
        Option<long?> initialSize = new Option<long?>("--initial-size")
        {
            Description = "Ask the row for this start size in bytes, so it grows while both processes write.",
        }.AtLeast(1);
        Option<int> maxSeconds = MaxSeconds("Ends the worker after this long even without a stop request.");
        var command = new Command(
            WorkerOptions.CommandName,
            "Internal: one side of a two-process check; writes its records, reads its peer's, prints JSON lines.")
        {
            name, peer, pause, minimumWrites, maxSeconds, noFlush, initialSize,
        };
        command.Hidden = true;
        StoreArguments.AddTo(command, readsOnly: true);
        command.SetAction(parseResult =>
        {
            var options = new WorkerOptions
            {
                Store = parseResult.GetRequiredValue(StoreArguments.Store),
                Directory = parseResult.GetRequiredValue(StoreArguments.Directory),
                Durability = parseResult.GetValue(StoreArguments.Durability),
                Access = parseResult.GetValue(StoreArguments.Access),
                Name = parseResult.GetRequiredValue(name),
                Peer = parseResult.GetRequiredValue(peer),
                Pause = TimeSpan.FromMilliseconds(parseResult.GetValue(pause)),
                MinimumWrites = parseResult.GetValue(minimumWrites),
                MaxDuration = TimeSpan.FromSeconds(parseResult.GetValue(maxSeconds)),
                FlushEachWrite = !parseResult.GetValue(noFlush),
                InitialSizeBytes = parseResult.GetValue(initialSize),
            };
            WorkerOutcome outcome = MultiProcessWorker.Run(options, Console.In, parseResult.InvocationConfiguration.Output);
            return ExitCode(outcome.OpenFailure, outcome.Succeeded);
        });
        return command;
    }

    /// <summary><c>contend-worker</c>: one side (ui or cli) of <c>kvbench contend</c>.</summary>
    public static Command CreateContention()
    {
        var role = new Option<ImportContentionRole>("--role")
        {
            Description = "Ui: a timed workload that looks for the cli's batches; Cli: a bulk import.",
            Required = true,
        };
        var settings = new Option<string>("--settings") { Description = "The run's settings as JSON (ImportContentionSettings).", Required = true };
        settings.Validators.Add(result =>
        {
            try
            {
                ImportContentionWorkerOptions.ParseSettings(result.GetValueOrDefault<string>());
            }
            catch (System.Text.Json.JsonException e)
            {
                result.AddError($"--settings is not the run's settings: {e.Message}");
            }
        });
        Option<int> maxSeconds = MaxSeconds("Ends the worker after this long even without its commands.");
        var command = new Command(
            ImportContentionWorkerOptions.CommandName,
            "Internal: the ui or the cli process of `kvbench contend`; follows commands on its input, prints JSON lines.")
        {
            role, settings, maxSeconds,
        };
        command.Hidden = true;
        StoreArguments.AddTo(command, readsOnly: true);
        command.SetAction(parseResult =>
        {
            var options = new ImportContentionWorkerOptions
            {
                Role = parseResult.GetValue(role),
                Store = parseResult.GetRequiredValue(StoreArguments.Store),
                Directory = parseResult.GetRequiredValue(StoreArguments.Directory),
                Durability = parseResult.GetValue(StoreArguments.Durability),
                Access = parseResult.GetValue(StoreArguments.Access),
                Settings = ImportContentionWorkerOptions.ParseSettings(parseResult.GetRequiredValue(settings)),
                MaxDuration = TimeSpan.FromSeconds(parseResult.GetValue(maxSeconds)),
            };
            ImportContentionOutcome outcome = ImportContentionWorker.Run(options, Console.In, parseResult.InvocationConfiguration.Output);
            return ExitCode(outcome.OpenFailure, outcome.Succeeded);
        });
        return command;
    }

    private static Option<int> MaxSeconds(string description) =>
        new Option<int>("--max-seconds") { Description = description, DefaultValueFactory = static _ => 120 }.AtLeast(1);

    /// <summary>A worker's exit code: the open's own code when the store did not open, else whether every call succeeded.</summary>
    private static int ExitCode(Exception? openFailure, bool succeeded) => openFailure switch
    {
        { } failure => ExitCodes.For(failure) ?? ExitCodes.Error,
        null when succeeded => ExitCodes.Ok,
        _ => ExitCodes.Error,
    };
}
