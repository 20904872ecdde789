using System.CommandLine;

using KvBench.Evaluation.Decision;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary><c>contend</c>: what the UI feels while the CLI imports, two real processes on each row (<see cref="ImportContention"/>).</summary>
internal static class ContendCommand
{
    public static Command Create()
    {
        ImportContentionSettings defaults = new();
        Option<string[]> stores = WorkloadCommands.EachChecked(
            new Option<string[]>("--stores")
            {
                Description = "Rows to run, comma-separated or repeated; every available row that keeps its data in files when left out.",
                AllowMultipleArgumentsPerToken = true,
            },
            static name => StoreArguments.UnknownStore(name)
                ?? (ImportContention.Applies(StoreArguments.CanonicalName(name)) ? null : $"{StoreArguments.CanonicalName(name)} keeps its data in process memory: no second process can share it."));
        Option<int> threads = WorkloadCommands.Positive(new Option<int>("--threads", "-t") { Description = "Threads of the ui.", DefaultValueFactory = _ => defaults.UiThreads });
        Option<double> rate = WorkloadCommands.AtLeast(new Option<double>("--rate") { Description = "The ui's operations per second, all threads together (open loop).", DefaultValueFactory = _ => defaults.UiOperationsPerSecond }, 0, inclusive: false);
        Option<long> records = WorkloadCommands.AtLeast(new Option<long>("--records", "-n") { Description = "Records loaded for the ui to read and update.", DefaultValueFactory = _ => defaults.UiRecords }, 1, inclusive: true);
        Option<double> writeShare = WorkloadCommands.AtLeast(new Option<double>("--write-share") { Description = "The share of the ui's operations that update a record; the rest read one.", DefaultValueFactory = _ => defaults.UiWriteShare }, 0, inclusive: true);
        Option<int> batch = WorkloadCommands.Positive(new Option<int>("--batch") { Description = "Records per PutMany of the cli's import.", DefaultValueFactory = _ => defaults.BatchSize });
        var command = new Command(
            "contend",
            "What the UI feels while the CLI writes: on each row, a ui process (point reads and small writes at a fixed rate, open loop) is measured alone, "
            + "then while a cli process imports batches at full speed; prints the ui's latencies, the cli's records/s, the visibility lag of each batch, "
            + "errors, and every acknowledged write read back.")
        {
            stores, threads, rate, records, writeShare, batch, WorkloadCommands.DurationOption, WorkloadCommands.WarmupOption, StoreArguments.Durability, WorkloadCommands.JsonFileOption, WorkloadCommands.WorkDirectoryOption, ProfileArguments.Profile,
        };
        writeShare.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<double>() > 1)
            {
                result.AddError("--write-share must be at most 1.");
            }
        });
        command.Validators.Add(result =>
        {
            // A command's validator sees an option left out as having no result, not its default.
            long recordCount = result.GetResult(records) is null ? defaults.UiRecords : result.GetValue(records);
            int threadCount = result.GetResult(threads) is null ? defaults.UiThreads : result.GetValue(threads);
            if (recordCount < threadCount)
            {
                result.AddError("--records must be at least --threads: each ui thread updates records of its own.");
            }
        });
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            // A profile's reader process runs its threads at its rate (or the default rate) in its write share, over its records.
            ProfileWorkload? profile = ProfileArguments.Workload(parseResult);
            ImportContentionSettings settings = defaults with
            {
                UiThreads = ProfileArguments.Choose(parseResult, threads, profile, given => given.Threads),
                UiOperationsPerSecond = ProfileArguments.Choose(parseResult, rate, profile, given => given.Rate ?? defaults.UiOperationsPerSecond),
                UiRecords = ProfileArguments.Choose(parseResult, records, profile, given => given.Records),
                UiWriteShare = ProfileArguments.Choose(parseResult, writeShare, profile, given => given.Mix.WriteShare()),
                BatchSize = parseResult.GetValue(batch),
                Duration = TimeSpan.FromSeconds(parseResult.GetValue(WorkloadCommands.DurationOption)),
                Warmup = TimeSpan.FromSeconds(parseResult.GetValue(WorkloadCommands.WarmupOption)),
            };
            IEnumerable<string> rows = parseResult.GetValue(stores) is { Length: > 0 } names
                ? WorkloadCommands.Split(names).Select(StoreArguments.CanonicalName)
                : StoreCatalog.AvailableNames;
            IReadOnlyList<ImportContentionResult> results = WorkloadCommands.InScratch(parseResult, scratch =>
                new ImportContention(KvBenchCli.Locate())
                    .RunAsync(rows, settings, scratch, ProfileArguments.Choose(parseResult, StoreArguments.Durability, profile, given => given.Durability), parseResult.InvocationConfiguration.Error.WriteLine)
                    .GetAwaiter().GetResult());
            return WorkloadCommands.Report(parseResult, [WorkloadTables.Contention(results), WorkloadTables.ContentionLatencies(results)], results, results.Select(result => result.Failure), WorkloadTables.ContentionFindings(results));
        });
        return command;
    }
}
