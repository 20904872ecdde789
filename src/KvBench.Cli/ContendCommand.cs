using System.CommandLine;

using KvBench.Evaluation.Decision;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Contention;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary><c>contend</c>: what the UI feels while the CLI imports, two real processes on each row (<see cref="ImportContention"/>).</summary>
internal static class ContendCommand
{
    public static Command Create()
    {
        ImportContentionSettings defaults = new();
        Option<string[]> stores = WorkloadCommands.StoreList(
            "Rows to run; every row available here that keeps its data in files when left out.",
            static name => StoreArguments.UnknownStore(name)
                ?? (ImportContention.Applies(StoreArguments.CanonicalName(name))
                    ? null
                    : $"{StoreArguments.CanonicalName(name)} keeps its data in process memory: no second process can share it."));
        Option<int> threads = new Option<int>("--threads", "-t")
        {
            Description = "Threads of the ui process.",
            DefaultValueFactory = _ => defaults.UiThreads,
            HelpName = "count",
        }.AtLeast(1);
        Option<double> rate = new Option<double>("--rate")
        {
            Description = "The ui's operations per second, all threads together (open loop).",
            DefaultValueFactory = _ => defaults.UiOperationsPerSecond,
            HelpName = "per-second",
        }.Above(0);
        Option<long> records = WorkloadCommands.Records("Records loaded for the ui to read and update.", defaults.UiRecords);
        Option<double> writeShare = new Option<double>("--write-share")
        {
            Description = "The share of the ui's operations that update a record; the rest read one.",
            DefaultValueFactory = _ => defaults.UiWriteShare,
            HelpName = "share",
        }.Between(0, 1);
        Option<int> batch = new Option<int>("--batch")
        {
            Description = "Records per PutMany of the cli's import.",
            DefaultValueFactory = _ => defaults.BatchSize,
            HelpName = "records",
        }.AtLeast(1);
        var command = new Command("contend", "Measures a ui process's reads and writes alone, then while a cli process imports.")
        {
            stores, threads, rate, records, writeShare, batch, WorkloadCommands.DurationOption,
            WorkloadCommands.WarmupOption, StoreArguments.Durability, WorkloadCommands.JsonFileOption,
            WorkloadCommands.WorkDirectoryOption, ProfileArguments.Profile,
        };
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
                ? names.Select(StoreArguments.CanonicalName)
                : StoreCatalog.AvailableNames;
            RanAlone<IReadOnlyList<ImportContentionResult>> ran = WorkloadCommands.InScratch(parseResult, scratch =>
                ContentionSection.RunAloneAsync(
                    KvBenchCli.Locate(),
                    rows,
                    settings,
                    scratch,
                    ProfileArguments.Choose(parseResult, StoreArguments.Durability, profile, given => given.Durability),
                    parseResult.InvocationConfiguration.Error.WriteLine)
                .GetAwaiter().GetResult());
            return WorkloadCommands.Report(parseResult, ran, CommandResults.ContentionKind);
        });
        return command;
    }
}
