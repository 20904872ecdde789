using System.CommandLine;

using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Evaluation.Workload;

namespace KvBench.Cli;

/// <summary>
/// <c>kvbench sqlite strategies|busy|upsert|pragmas</c>: SQLite's ways of use measured side by side, the same
/// measurements the ADR file's SQLite section carries, with longer defaults. A row that lets a busy error through,
/// loses a write or reads wrong bytes exits with <see cref="ExitCodes.CheckFailed"/>.
/// </summary>
internal static class SqliteCommands
{
    public static Command Create()
    {
        var defaults = new SqliteSuiteSettings();
        return new Command("sqlite", "Measures SQLite's connection strategies, busy trap, upsert forms and pragmas.")
        {
            Sweep("strategies", "Runs three mixes at each thread count on Sqlite_WAL and every SQLite strategy row.", defaults.Row, defaults.Strategies),
            Busy(defaults.Row, defaults.BusyTrap),
            Sweep("upsert", "Runs reads and overwrites on Sqlite_WAL with each upsert statement.", defaults.Row, defaults.Tuning),
            All(),
            Sweep(
                "pragmas",
                "Runs reads and overwrites on Sqlite_WAL with and without larger cache_size and mmap_size.",
                defaults.Row,
                defaults.Tuning),
        };
    }

    private static Command Sweep(string name, string description, string row, SuiteSettings defaults)
    {
        Option<long> records = WorkloadCommands.Records("Records loaded before the runs.", defaults.Records);
        Option<int[]> threadCounts = WorkloadCommands.ThreadCounts($"Thread counts (default {string.Join(',', defaults.SweepThreads)}).");
        var command = new Command(name, description)
        {
            records, threadCounts, WorkloadCommands.DurationOption, WorkloadCommands.WarmupOption,
            WorkloadCommands.JsonFileOption, WorkloadCommands.WorkDirectoryOption,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            SuiteSettings settings = defaults with
            {
                Records = parseResult.GetValue(records),
                SweepThreads = parseResult.GetValue(threadCounts) is { Length: > 0 } counts ? counts : defaults.SweepThreads,
                Warmup = TimeSpan.FromSeconds(parseResult.GetValue(WorkloadCommands.WarmupOption)),
                Duration = TimeSpan.FromSeconds(parseResult.GetValue(WorkloadCommands.DurationOption)),
            };
            RanAlone<IReadOnlyList<WorkloadResult>> ran = WorkloadCommands.InScratch(parseResult, scratch =>
                SqliteSection.RunSweepAlone(name, row, settings, scratch, parseResult.InvocationConfiguration.Error.WriteLine));
            return WorkloadCommands.Report(parseResult, ran, CommandResults.SqliteSweepKind, intervalLogs: ran.Results);
        });
        return command;
    }

    /// <summary><c>kvbench sqlite all</c>: the ADR file's SQLite section alone, with the default evaluation's settings or the long ones.</summary>
    private static Command All()
    {
        var full = new Option<bool>("--full") { Description = "Every suite at its own, longer defaults instead of the evaluation's." };
        var command = new Command("all", "Runs every SQLite suite and prints the ADR file's SQLite section.")
        {
            full, WorkloadCommands.WorkDirectoryOption,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            bool isFull = parseResult.GetValue(full);
            RanAlone<SqliteResults> ran = WorkloadCommands.InScratch(parseResult, scratch =>
                SqliteSection.RunAlone(
                    isFull ? new SqliteSuiteSettings() : SqliteSuiteSettings.Evaluation,
                    isFull ? "kvbench sqlite all --full" : "kvbench sqlite all",
                    scratch,
                    parseResult.InvocationConfiguration.Error.WriteLine));
            parseResult.InvocationConfiguration.Output.Write(ran.Markdown);
            IReadOnlyList<string> problems = ran.Problems;
            foreach (string problem in problems)
            {
                parseResult.InvocationConfiguration.Error.WriteLine($"kvbench: {problem}");
            }

            return problems.Count > 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
        });
        return command;
    }

    private static Command Busy(string row, BusyTrapSettings defaults)
    {
        Option<int> writes = new Option<int>("--writes")
        {
            Description = "Writes, each to a record of its own.",
            DefaultValueFactory = _ => defaults.Writes,
            HelpName = "count",
        }.AtLeast(1);
        Option<int> writers = new Option<int>("--writers")
        {
            Description = "Asynchronous writers in flight at once.",
            DefaultValueFactory = _ => defaults.Writers,
            HelpName = "count",
        }.AtLeast(1);
        Option<int> pool = new Option<int>("--pool")
        {
            Description = "Connections of the naive pool.",
            DefaultValueFactory = _ => defaults.PoolConnections,
            HelpName = "count",
        }.AtLeast(1);
        var command = new Command("busy", "Reproduces the SQLITE_BUSY trap through a naive pool, a pool of one and every SQLite row.")
        {
            writes, writers, pool, WorkloadCommands.JsonFileOption, WorkloadCommands.WorkDirectoryOption,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            var settings = new BusyTrapSettings
            {
                Writes = parseResult.GetValue(writes),
                Writers = parseResult.GetValue(writers),
                PoolConnections = parseResult.GetValue(pool),
            };
            return WorkloadCommands.Report(
                parseResult,
                WorkloadCommands.InScratch(parseResult, scratch =>
                    SqliteSection.RunBusyTrapAlone(row, settings, scratch, parseResult.InvocationConfiguration.Error.WriteLine)),
                CommandResults.SqliteBusyKind);
        });
        return command;
    }
}
