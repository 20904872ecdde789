using System.CommandLine;

using KvBench.Core;
using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary>
/// <c>run</c>, <c>ycsb</c> and <c>sweep</c>: the workload runner from the command line. Every one prints markdown tables
/// and can write the results as JSON; a run with a wrong read or a failed operation exits with
/// <see cref="ExitCodes.CheckFailed"/>.
/// </summary>
internal static class WorkloadCommands
{
    /// <summary>The bare JSON of a command that writes no results file yet (the sqlite suites).</summary>

    /// <summary>
    /// The threads of <c>run</c> and <c>ycsb</c>, one default for both (and the one <c>contend</c>'s ui has), so the
    /// same workload named on either command is the same run.
    /// </summary>
    private static readonly Option<int> s_threads = new Option<int>("--threads", "-t")
    {
        Description = "Threads issuing operations.",
        DefaultValueFactory = static _ => new SuiteSettings().YcsbThreads,
        HelpName = "count",
    }.AtLeast(1);

    internal static readonly Option<double> DurationOption = new Option<double>("--duration")
    {
        Description = "Seconds measured per run, after the warm-up.",
        DefaultValueFactory = static _ => 5,
        HelpName = "seconds",
    }.Above(0);

    internal static readonly Option<double> WarmupOption = new Option<double>("--warmup")
    {
        Description = "Seconds run, unrecorded, before each measured run.",
        DefaultValueFactory = static _ => 1,
        HelpName = "seconds",
    }.AtLeast(0);

    internal static readonly Option<double> TimelineIntervalOption = new Option<double>("--interval")
    {
        Description = "Seconds per interval of each run's timeline (throughput and p99 over time).",
        DefaultValueFactory = static _ => 1,
        HelpName = "seconds",
    }.Between(0.01, 3600);

    private static readonly Option<long> s_records = Records("Records loaded before the runs.", 100_000);

    internal static readonly Option<FileInfo?> JsonFileOption = new("--json")
    {
        Description = "Also write the results to this JSON file, and latency logs (.hlog) beside it.",
        HelpName = "file",
    };

    private static readonly Option<string[]> s_stores = StoreList("Rows to run; every row available here when left out.", StoreArguments.UnknownStore);

    internal static readonly Option<LengthDistribution> KeyBytesOption = Lengths(
        "--key-bytes",
        "Each key's length: 16, 16..64 or 90%:16,10%:200.",
        WorkloadSpec.DefaultKeyBytes);

    internal static readonly Option<LengthDistribution> ValueBytesOption = Lengths(
        "--value-bytes",
        "Each value's length: 128, 100..4096 or 80%:200,20%:40KiB.",
        WorkloadSpec.DefaultValueBytes);

    internal static readonly Option<KeyShape> KeyShapeOption = new("--key-shape")
    {
        Description = "random, or prefixed:N (keys under N prefixes).",
        HelpName = "shape",
        DefaultValueFactory = static _ => KeyShape.Random,
        CustomParser = static result => Parsed(result, KeyShape.Parse, KeyShape.Random),
    };

    internal static readonly Option<DirectoryInfo?> WorkDirectoryOption = WorkDirectory("Scratch directory for the rows' stores");

    /// <summary><c>kvbench run</c>: one store, one workload or mix.</summary>
    public static Command Run()
    {
        var workload = new Option<string?>("--workload", "-w") { Description = "A YCSB workload, A to F (its mix and key distribution).", HelpName = "name" };
        workload.Validators.Add(result =>
        {
            if (result.Tokens.Count > 0 && UnknownWorkload(result.Tokens[0].Value) is { } error)
            {
                result.AddError(error);
            }
        });
        Option<string[]> mix = ListOptions.Names("--mix", "Operation shares instead of a workload, e.g. read=0.5,update=0.5.", BadMix);
        mix.HelpName = "shares";
        var distribution = new Option<KeyDistribution?>("--distribution")
        {
            Description = "Uniform, Zipfian or Latest (default: the workload's, or Zipfian).",
            HelpName = "name",
        };
        Option<double?> rate = new Option<double?>("--rate")
        {
            Description = "Operations per second of all threads together, open loop; closed loop when left out.",
            HelpName = "per-second",
        }.Above(0);
        var load = new Option<bool>("--load") { Description = "Load the records first; else the store in --dir must hold them." };
        var command = new Command("run", "Runs one workload on one store and prints throughput and latency per operation.")
        {
            workload, mix, distribution, s_records, KeyBytesOption, KeyShapeOption, ValueBytesOption, s_threads,
            DurationOption, WarmupOption, TimelineIntervalOption, rate, load, JsonFileOption, ProfileArguments.Profile,
        };
        AddShapeCheck(command);
        StoreArguments.AddTo(command);
        StoreArguments.AddEndpointTo(command);
        StoreArguments.AddWalAutoCheckpointTo(command);
        command.Validators.Add(result =>
        {
            if (result.GetValue(workload) is not null && result.GetValue(mix) is { Length: > 0 })
            {
                result.AddError("Give --workload or --mix, not both.");
            }
        });
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            ProfileWorkload? profile = ProfileArguments.Workload(parseResult);
            string? shares = parseResult.GetValue(mix) is { Length: > 0 } given ? string.Join(',', given) : null;
            WorkloadSpec spec = parseResult.GetValue(workload) is { } name
                ? YcsbWorkloads.Named(name)
                : shares is null && profile is not null
                    ? profile.ToSpec(parseResult.GetValue(ProfileArguments.Profile)!.Name)
                    : new WorkloadSpec { Name = shares ?? "read=1", Mix = ParseMix(shares ?? "read=1") };
            spec = spec with
            {
                RecordCount = ProfileArguments.Choose(parseResult, s_records, profile, given => given.Records),
                KeyBytes = ProfileArguments.Choose(parseResult, KeyBytesOption, profile, given => given.KeyBytes),
                KeyShape = ProfileArguments.Choose(parseResult, KeyShapeOption, profile, given => given.KeyShape),
                ValueLength = ProfileArguments.Choose(parseResult, ValueBytesOption, profile, given => given.ValueBytes),
                Distribution = parseResult.GetValue(distribution) ?? spec.Distribution,
            };
            RunSettings run = Settings(parseResult) with
            {
                Threads = ProfileArguments.Choose(parseResult, s_threads, profile, given => given.Threads),
                TargetOperationsPerSecond = parseResult.GetValue(rate) ?? profile?.Rate,
            };
            using IKeyValueStore store = StoreArguments.Open(
                parseResult,
                durability: ProfileArguments.Choose(parseResult, StoreArguments.Durability, profile, given => given.Durability));
            if (parseResult.GetValue(load))
            {
                LoadProgress.Run(loads =>
                {
                    WorkloadRunner.Load(store, spec, LoadStatus.Relay(loads, $"{store.Name}: {spec.RecordCount:N0} records", 0, spec.RecordCount));
                    store.Flush();
                    return spec.RecordCount;
                });
            }

            RanAlone<WorkloadResult> ran = WorkloadSection.RunWorkloadAlone(store, spec, run);
            // A list of one, as ycsb writes its runs: one kind of file for the one table both print.
            return Report(
                parseResult,
                new RanAlone<IReadOnlyList<WorkloadResult>>(ran.Markdown, [ran.Results], ran.Problems),
                CommandResults.WorkloadsKind,
                intervalLogs: [ran.Results],
                dataDirectory: parseResult.GetValue(StoreArguments.Directory));
        });
        return command;
    }

    /// <summary><c>kvbench ycsb</c>: YCSB A to F over chosen rows.</summary>
    public static Command Ycsb()
    {
        Option<string[]> workloads = ListOptions.Names("--workloads", "Which of the YCSB workloads A to F; all of them when left out.", UnknownWorkload);
        workloads.HelpName = "names";
        var command = new Command("ycsb", "Runs the YCSB workloads A to F on every chosen row, each loaded once in a fresh directory.")
        {
            s_stores, workloads, s_records, KeyBytesOption, KeyShapeOption, ValueBytesOption, s_threads,
            StoreArguments.Durability, DurationOption, WarmupOption, TimelineIntervalOption, JsonFileOption, WorkDirectoryOption,
            ProfileArguments.Profile,
        };
        AddShapeCheck(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            WorkloadSpec[] chosen = parseResult.GetValue(workloads) is { Length: > 0 } names
                ? [.. names.Select(YcsbWorkloads.Named)]
                : [.. YcsbWorkloads.All];
            ProfileWorkload? profile = ProfileArguments.Workload(parseResult);
            SuiteSettings settings = Suite(parseResult, profile) with
            {
                YcsbThreads = ProfileArguments.Choose(parseResult, s_threads, profile, given => given.Threads),
            };
            Durability durability = ProfileArguments.Choose(parseResult, StoreArguments.Durability, profile, given => given.Durability);
            RanAlone<IReadOnlyList<WorkloadResult>> ran = InScratch(parseResult, scratch => LoadProgress.Run(loads =>
                WorkloadSection.RunYcsbAlone(
                    Rows(parseResult),
                    chosen,
                    settings,
                    scratch,
                    parseResult.InvocationConfiguration.Error.WriteLine,
                    loads,
                    directory => new StoreOptions { Directory = directory, Durability = durability })));
            return Report(parseResult, ran, CommandResults.WorkloadsKind, intervalLogs: ran.Results);
        });
        return command;
    }

    /// <summary><c>kvbench sweep threads|scale</c>.</summary>
    public static Command Sweep()
    {
        var what = new Argument<string>("what")
        {
            Description = "threads (three mixes at each thread count) or scale (point and scan costs at each record count).",
        };
        what.AcceptOnlyFromAmong("threads", "scale");
        var defaults = new SuiteSettings();
        Option<int[]> threadCounts = ThreadCounts($"Thread counts of a threads sweep (default {string.Join(',', defaults.SweepThreads)}).");
        Option<long[]> recordCounts = ListOptions.Numbers<long>(
            "--record-counts",
            $"Record counts of a scale sweep (default {string.Join(',', defaults.ScaleRecords)}).").AtLeast(1);
        recordCounts.HelpName = "counts";
        var command = new Command("sweep", "Runs the thread sweep or the scale sweep on every chosen row.")
        {
            what, s_stores, s_records, threadCounts, recordCounts, KeyBytesOption, KeyShapeOption, ValueBytesOption,
            StoreArguments.Durability, DurationOption, WarmupOption, TimelineIntervalOption, JsonFileOption, WorkDirectoryOption,
            ProfileArguments.Profile,
        };
        AddShapeCheck(command);
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            ProfileWorkload? profile = ProfileArguments.Workload(parseResult);
            SuiteSettings settings = Suite(parseResult, profile);
            if (parseResult.GetValue(threadCounts) is { Length: > 0 } counts)
            {
                settings = settings with { SweepThreads = counts };
            }

            if (parseResult.GetValue(recordCounts) is { Length: > 0 } records)
            {
                settings = settings with { ScaleRecords = [.. records.Order()] };
            }

            // The tier every row opens at, so a sweep can repeat the Synced tables of the server section.
            Durability durability = ProfileArguments.Choose(parseResult, StoreArguments.Durability, profile, given => given.Durability);
            StoreOptions Options(string directory) => new() { Directory = directory, Durability = durability };
            if (parseResult.GetRequiredValue(what) == "scale")
            {
                RanAlone<IReadOnlyList<ScalePoint>> scale = InScratch(parseResult, scratch => LoadProgress.Run(loads =>
                    WorkloadSection.RunScaleSweepAlone(
                        Rows(parseResult), settings, scratch, parseResult.InvocationConfiguration.Error.WriteLine, loads, Options)));
                return Report(
                    parseResult,
                    scale,
                    CommandResults.ScaleSweepKind,
                    intervalLogs: scale.Results.SelectMany(point => (WorkloadResult[])[point.Get, point.Put, point.Scan]));
            }

            RanAlone<IReadOnlyList<WorkloadResult>> threads = InScratch(parseResult, scratch => LoadProgress.Run(loads =>
                WorkloadSection.RunThreadSweepAlone(
                    Rows(parseResult), settings, scratch, parseResult.InvocationConfiguration.Error.WriteLine, loads, Options)));
            return Report(parseResult, threads, CommandResults.ThreadSweepKind, intervalLogs: threads.Results);
        });
        return command;
    }

    /// <summary>"read=0.95,insert=0.05" as a mix.</summary>
    internal static OperationMix ParseMix(string text)
    {
        var mix = new OperationMix();
        foreach (string part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            string[] pair = part.Split('=', 2, StringSplitOptions.TrimEntries);
            if (pair.Length != 2
                || !double.TryParse(
                    pair[1],
                    System.Globalization.NumberStyles.Float,
                    System.Globalization.CultureInfo.InvariantCulture,
                    out double share)
                || share < 0)
            {
                throw new ArgumentException($"'{part}' is not an operation share: write name=number, e.g. read=0.5.");
            }

            mix = pair[0].ToLowerInvariant() switch
            {
                "read" => mix with { Read = share },
                "update" => mix with { Update = share },
                "insert" => mix with { Insert = share },
                "rmw" or "readmodifywrite" => mix with { ReadModifyWrite = share },
                "scan" => mix with { Scan = share },
                "delete" => mix with { Delete = share },
                "haskey" or "has" => mix with { HasKey = share },
                _ => throw new ArgumentException($"'{pair[0]}' is not an operation: use read, update, insert, rmw, scan, delete or haskey."),
            };
        }

        return mix;
    }

    private static RunSettings Settings(ParseResult parseResult) => new()
    {
        Threads = parseResult.GetValue(s_threads),
        Warmup = TimeSpan.FromSeconds(parseResult.GetValue(WarmupOption)),
        Duration = TimeSpan.FromSeconds(parseResult.GetValue(DurationOption)),
        TimelineInterval = TimeSpan.FromSeconds(parseResult.GetValue(TimelineIntervalOption)),
        KeepIntervalHistograms = parseResult.GetValue(JsonFileOption) is not null,
    };

    /// <summary>
    /// The suites' settings: the lengths, key shape and records from the options, or from <paramref name="profile"/>
    /// where an option was left out.
    /// </summary>
    private static SuiteSettings Suite(ParseResult parseResult, ProfileWorkload? profile) => new()
    {
        Records = ProfileArguments.Choose(parseResult, s_records, profile, given => given.Records),
        KeyBytes = ProfileArguments.Choose(parseResult, KeyBytesOption, profile, given => given.KeyBytes),
        KeyShape = ProfileArguments.Choose(parseResult, KeyShapeOption, profile, given => given.KeyShape),
        ValueLength = ProfileArguments.Choose(parseResult, ValueBytesOption, profile, given => given.ValueBytes),
        Warmup = TimeSpan.FromSeconds(parseResult.GetValue(WarmupOption)),
        Duration = TimeSpan.FromSeconds(parseResult.GetValue(DurationOption)),
        TimelineInterval = TimeSpan.FromSeconds(parseResult.GetValue(TimelineIntervalOption)),
        KeepIntervalHistograms = parseResult.GetValue(JsonFileOption) is not null,
    };

    private static IEnumerable<string> Rows(ParseResult parseResult) =>
        parseResult.GetValue(s_stores) is { Length: > 0 } names
            ? names.Select(StoreArguments.CanonicalName)
            : StoreCatalog.AvailableNames;

    /// <summary>Runs <paramref name="run"/> in --work-dir, or in a new temporary folder it removes afterwards.</summary>
    internal static T InScratch<T>(ParseResult parseResult, Func<string, T> run)
    {
        string scratch = parseResult.GetValue(WorkDirectoryOption)?.FullName
            ?? Path.Combine(Path.GetTempPath(), "kvbench-workload-" + Guid.NewGuid().ToString("N"));
        try
        {
            return run(scratch);
        }
        finally
        {
            if (parseResult.GetValue(WorkDirectoryOption) is null && Directory.Exists(scratch))
            {
                Directory.Delete(scratch, recursive: true);
            }
        }
    }

    /// <summary>
    /// Prints what a section ran alone, writes its results file where --json asks, and prints each of its problems on a
    /// line of its own: <see cref="ExitCodes.CheckFailed"/> when there is any.
    /// </summary>
    /// <param name="parseResult">The command line.</param>
    /// <param name="ran">What the section printed and measured.</param>
    /// <param name="kind">The kind of results file to write (<see cref="CommandResults"/>).</param>
    /// <param name="intervalLogs">The runs whose latencies over time go beside the results file.</param>
    /// <param name="dataDirectory">Where the stores were, for the machine's file system; default: --work-dir or the temp folder.</param>
    internal static int Report<TResults>(
        ParseResult parseResult, RanAlone<TResults> ran, string kind, IEnumerable<WorkloadResult>? intervalLogs = null,
        string? dataDirectory = null)
        where TResults : class
    {
        parseResult.InvocationConfiguration.Output.Write(ran.Markdown);
        if (parseResult.GetValue(JsonFileOption) is { } file)
        {
            string directory = dataDirectory ?? parseResult.GetValue(WorkDirectoryOption)?.FullName ?? Path.GetTempPath();
            new CommandResults<TResults>(kind, CommandLine(parseResult), MachineInfo.Collect(directory), ran.Results)
                .WriteAsync(file.FullName).GetAwaiter().GetResult();

            // Each run's latencies over time go beside the results, in HdrHistogram's interval log format.
            foreach (WorkloadResult result in (intervalLogs ?? []).Where(result => result.IntervalHistograms is not null))
            {
                using FileStream log = File.Create(IntervalLog.PathBeside(file.FullName, result));
                IntervalLog.Write(result, log);
            }
        }

        foreach (string problem in ran.Problems)
        {
            parseResult.InvocationConfiguration.Error.WriteLine($"kvbench: {problem}");
        }

        return ran.Problems.Count == 0 ? ExitCodes.Ok : ExitCodes.CheckFailed;
    }

    /// <summary>The command line as typed, to repeat the run.</summary>
    private static string CommandLine(ParseResult parseResult) =>
        string.Join(' ', ["kvbench", .. parseResult.Tokens.Select(token => Quoted(token.Value))]);

    private static string Quoted(string word) => word.Contains(' ', StringComparison.Ordinal) ? $"'{word}'" : word;

    private static string? UnknownWorkload(string name) => YcsbWorkloads.Find(name) is null ? $"No YCSB workload is named '{name}'; they are A to F." : null;

    /// <summary>Checks one share of a mix; the list's form has already split the shares apart.</summary>
    private static string? BadMix(string share)
    {
        try
        {
            ParseMix(share);
            return null;
        }
        catch (ArgumentException e)
        {
            return e.Message;
        }
    }

    /// <summary>An option of lengths, read by <see cref="LengthDistribution.Parse"/>: a bad one is a usage error with its reason.</summary>
    private static Option<LengthDistribution> Lengths(string name, string description, int defaultBytes) => new(name)
    {
        Description = description,
        HelpName = "bytes",
        DefaultValueFactory = _ => LengthDistribution.Fixed(defaultBytes),
        CustomParser = result => Parsed(result, LengthDistribution.Parse, LengthDistribution.Fixed(defaultBytes)),
    };

    /// <summary>Parses an option's one token with <paramref name="parse"/>; a <see cref="FormatException"/> becomes the option's usage error.</summary>
    private static T Parsed<T>(System.CommandLine.Parsing.ArgumentResult result, Func<string, T> parse, T fallback)
    {
        string text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        try
        {
            return parse(text);
        }
        catch (FormatException e)
        {
            result.AddError($"{((System.CommandLine.Parsing.OptionResult)result.Parent!).Option.Name}: {e.Message}");
            return fallback;
        }
    }

    /// <summary>
    /// Makes key and value lengths the record set cannot hold (a key shorter than its shape needs, a value too short for
    /// its version stamp) a usage error with the record set's own reason.
    /// </summary>
    private static void AddShapeCheck(Command command) =>
        command.Validators.Add(static result =>
        {
            // A command's validator sees an option left out as having no result, not its default; a value that did not
            // parse has its own error already.
            if (Given(result, KeyBytesOption, LengthDistribution.Parse, LengthDistribution.Fixed(WorkloadSpec.DefaultKeyBytes)) is not { } keys
                || Given(result, KeyShapeOption, KeyShape.Parse, KeyShape.Random) is not { } shape
                || Given(result, ValueBytesOption, LengthDistribution.Parse, LengthDistribution.Fixed(WorkloadSpec.DefaultValueBytes)) is not { } values)
            {
                return;
            }

            try
            {
                _ = new RecordSet(keys, shape, values);
            }
            catch (ArgumentException e)
            {
                // The record set names the parameter it refused; the user typed an option, so the line names that.
                string option = e.ParamName switch
                {
                    "keyBytes" => KeyBytesOption.Name,
                    "keyShape" => KeyShapeOption.Name,
                    _ => ValueBytesOption.Name,
                };
                result.AddError($"{option}: {e.Message.Split(" (Parameter", 2)[0]}");
            }
        });

    /// <summary>The value of <paramref name="option"/> as given, its default when left out, or <see langword="null"/> when it does not parse.</summary>
    private static T? Given<T>(System.CommandLine.Parsing.CommandResult result, Option<T> option, Func<string, T> parse, T fallback)
        where T : class
    {
        if (result.GetResult(option) is not { Tokens: [{ } token, ..] })
        {
            return fallback;
        }

        try
        {
            return parse(token.Value);
        }
        catch (FormatException)
        {
            return null;
        }
    }

    /// <summary><c>--records</c>/<c>-n</c>: records loaded before a command's runs, at least one.</summary>
    internal static Option<long> Records(string description, long defaultRecords) =>
        new Option<long>("--records", "-n") { Description = description, DefaultValueFactory = _ => defaultRecords, HelpName = "count" }.AtLeast(1);

    /// <summary><c>--stores</c>: the rows a command runs on, each checked by <paramref name="check"/>.</summary>
    internal static Option<string[]> StoreList(string description, Func<string, string?> check)
    {
        Option<string[]> option = ListOptions.Names("--stores", description, check);
        option.HelpName = "rows";
        return option;
    }

    /// <summary><c>--thread-counts</c>: the thread counts of a sweep, each at least one.</summary>
    internal static Option<int[]> ThreadCounts(string description)
    {
        Option<int[]> option = ListOptions.Numbers<int>("--thread-counts", description).AtLeast(1);
        option.HelpName = "counts";
        return option;
    }

    /// <summary><c>--work-dir</c>: a scratch directory kept afterwards, or a new temporary one removed afterwards.</summary>
    internal static Option<DirectoryInfo?> WorkDirectory(string description) =>
        new("--work-dir") { Description = $"{description}; default: a new temp folder.", HelpName = "dir" };
}
