using System.Diagnostics;

using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Evaluation.Workload;

/// <summary>How long and how hard the workload suites run; the presets keep the default evaluation within its time.</summary>
public sealed record SuiteSettings
{
    /// <summary>Records loaded for the YCSB and thread-sweep suites.</summary>
    public long Records { get; init; } = 100_000;

    /// <summary>Threads of every YCSB workload.</summary>
    public int YcsbThreads { get; init; } = 4;

    /// <summary>The thread counts of the sweep.</summary>
    public IReadOnlyList<int> SweepThreads { get; init; } = [1, 2, 4, 8, 16];

    /// <summary>The mixes of the sweep: read-only, write-only and half and half, uniform keys.</summary>
    public IReadOnlyList<WorkloadSpec> SweepMixes { get; init; } =
    [
        new() { Name = "read-only", Mix = OperationMix.ReadOnly, Distribution = KeyDistribution.Uniform },
        new() { Name = "write-only", Mix = OperationMix.WriteOnly, Distribution = KeyDistribution.Uniform },
        new() { Name = "50/50", Mix = OperationMix.HalfReads, Distribution = KeyDistribution.Uniform },
    ];

    /// <summary>The record counts of the scale sweep.</summary>
    public IReadOnlyList<long> ScaleRecords { get; init; } = [10_000, 100_000, 1_000_000];

    /// <summary>Each key's length in every run. Default: <see cref="WorkloadSpec.DefaultKeyBytes"/> bytes.</summary>
    public LengthDistribution KeyBytes { get; init; } = LengthDistribution.Fixed(WorkloadSpec.DefaultKeyBytes);

    /// <summary>How keys look in every run. Default: random.</summary>
    public KeyShape KeyShape { get; init; } = KeyShape.Random;

    /// <summary>Each value's length in every run. Default: <see cref="WorkloadSpec.DefaultValueBytes"/> bytes.</summary>
    public LengthDistribution ValueLength { get; init; } = LengthDistribution.Fixed(WorkloadSpec.DefaultValueBytes);

    /// <summary>The records every row is loaded with, in these settings' key and value shapes.</summary>
    public RecordSet RecordSet() => new(KeyBytes, KeyShape, ValueLength);

    /// <summary><paramref name="workload"/> in these settings' key and value shapes.</summary>
    public WorkloadSpec Shaped(WorkloadSpec workload)
    {
        ArgumentNullException.ThrowIfNull(workload);
        return workload with { KeyBytes = KeyBytes, KeyShape = KeyShape, ValueLength = ValueLength };
    }

    /// <summary>Warm-up of each run.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Measured time of each run.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Whether each run keeps its interval histograms for an interval log (<see cref="RunSettings.KeepIntervalHistograms"/>).</summary>
    public bool KeepIntervalHistograms { get; init; }

    /// <summary>
    /// The interval of each run's timeline (<see cref="RunSettings.TimelineInterval"/>). Default: 1 s, as a single run's.
    /// </summary>
    public TimeSpan TimelineInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>A run's settings: these lengths, at <paramref name="threads"/> threads.</summary>
    public RunSettings Run(int threads) => new()
    {
        Threads = threads,
        Warmup = Warmup,
        Duration = Duration,
        TimelineInterval = TimelineInterval,
        KeepIntervalHistograms = KeepIntervalHistograms,
    };

    /// <summary>
    /// The default evaluation's: 0.2 s of warm-up and 0.5 s measured per run, 12 runs per row (6 of the sweep at 1 and 4
    /// threads, the two counts the thread-cost table compares on two cores, 6 of YCSB) on one load of 50,000 records;
    /// then 6 runs of the scale sweep per row at 1,000 and 10,000 records. A third thread count, longer runs or 100,000
    /// records take this step past what the default evaluation's 15 minutes leave it, and a scale sweep up to 100,000
    /// records is mostly FileSystem creating a file per record, which the 15-minute evaluation cannot afford either:
    /// <c>--full</c> and <c>kvbench sweep threads</c> run every thread count, and <c>--full</c> and
    /// <c>kvbench sweep scale</c> go to a million records. A screen, not a verdict; <c>kvbench ycsb</c> and
    /// <c>kvbench sweep</c> run 5 s each. Each run's timeline has five intervals of 100 ms, so that
    /// <c>kvbench compare</c> has a spread to judge a cell of two evaluations by, where one interval would give none.
    /// </summary>
    public static SuiteSettings Evaluation { get; } = new()
    {
        Records = 50_000,
        ScaleRecords = [1_000, 10_000],
        SweepThreads = [1, 4],
        Warmup = TimeSpan.FromMilliseconds(200),
        Duration = TimeSpan.FromMilliseconds(500),
        TimelineInterval = TimeSpan.FromMilliseconds(100),
    };

    /// <summary>A few hundred milliseconds a run on a few thousand records: for tests.</summary>
    public static SuiteSettings Smoke { get; } = new()
    {
        Records = 2_000,
        YcsbThreads = 2,
        SweepThreads = [1, 2],
        ScaleRecords = [1_000, 4_000],
        Warmup = TimeSpan.FromMilliseconds(50),
        Duration = TimeSpan.FromMilliseconds(200),
    };
}

/// <summary>One row at one record count: what loading cost, the bytes it left on disk, and its point and scan latencies.</summary>
/// <param name="Store">The row.</param>
/// <param name="Records">Records loaded.</param>
/// <param name="LoadRecordsPerSecond">Records per second of the load (batches of 1,000, then a Flush).</param>
/// <param name="BytesOnDisk">Bytes of every file in the store's directory after the load and Flush; 0 for the memory floor.</param>
/// <param name="Get">A read-only run, one thread.</param>
/// <param name="Put">An update-only run, one thread.</param>
/// <param name="Scan">100-record scans, one thread.</param>
public sealed record ScalePoint(
    string Store, long Records, double LoadRecordsPerSecond, long BytesOnDisk, WorkloadResult Get, WorkloadResult Put,
    WorkloadResult Scan)
{
    /// <summary>Bytes on disk per record.</summary>
    public double BytesPerRecord => (double)BytesOnDisk / Records;
}

/// <summary>The YCSB, thread-sweep and scale suites over catalog rows, each row in a fresh directory it loads once.</summary>
public static class WorkloadSuites
{
    /// <summary>
    /// The evaluation's two suites on one load per row: the thread sweep, then YCSB A to F (the inserting workloads last,
    /// as YCSB recommends, so the sweep and the other workloads see the loaded records only).
    /// </summary>
    /// <param name="rows">The rows.</param>
    /// <param name="settings">Records, mixes, thread counts and run lengths.</param>
    /// <param name="workDirectory">Where each row's directory is made and removed.</param>
    /// <param name="log">Receives a line per run.</param>
    /// <param name="loads">Receives load progress.</param>
    /// <param name="options">
    /// The options a row is opened with, given its directory (a tier, a store's own options record); plain
    /// <see cref="StoreOptions"/> when left out.
    /// </param>
    public static (IReadOnlyList<WorkloadResult> Ycsb, IReadOnlyList<WorkloadResult> Threads) Evaluation(
        IEnumerable<string> rows, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var ycsb = new List<WorkloadResult>();
        var threads = new List<WorkloadResult>();
        RunOnLoadedRows(rows, settings, workDirectory, log, loads, (store, records) =>
        {
            threads.AddRange(SweepRuns(store, records, settings, log));
            ycsb.AddRange(YcsbRuns(store, records, YcsbWorkloads.All, settings, log));
            return [];
        }, options);
        return (ycsb, threads);
    }

    /// <summary>YCSB A, B, C, F, D, E (YCSB's recommended order: the inserting workloads last) on each row.</summary>
    /// <param name="rows">The rows.</param>
    /// <param name="workloads">The workloads, run in YCSB's order whatever order they come in.</param>
    /// <param name="settings">Records, shapes, threads and run lengths.</param>
    /// <param name="workDirectory">Where each row's directory is made and removed.</param>
    /// <param name="log">Receives a line per run.</param>
    /// <param name="loads">Receives load progress.</param>
    /// <param name="options">The options a row is opened with, given its directory (a tier); plain <see cref="StoreOptions"/> when left out.</param>
    public static IReadOnlyList<WorkloadResult> Ycsb(
        IEnumerable<string> rows, IReadOnlyList<WorkloadSpec> workloads, SuiteSettings settings, string workDirectory,
        Action<string>? log = null, IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return RunOnLoadedRows(rows, settings, workDirectory, log, loads, (store, records) => YcsbRuns(store, records, workloads, settings, log), options);
    }

    /// <summary>Each sweep mix at each thread count on each row.</summary>
    /// <param name="rows">The rows.</param>
    /// <param name="settings">Records, mixes, thread counts and run lengths.</param>
    /// <param name="workDirectory">Where each row's directory is made and removed.</param>
    /// <param name="log">Receives a line per run.</param>
    /// <param name="loads">Receives load progress.</param>
    /// <param name="options">
    /// The options a row is opened with, given its directory (a store's own options record); plain
    /// <see cref="StoreOptions"/> when left out.
    /// </param>
    public static IReadOnlyList<WorkloadResult> Threads(
        IEnumerable<string> rows, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return RunOnLoadedRows(rows, settings, workDirectory, log, loads, (store, records) => SweepRuns(store, records, settings, log), options);
    }

    /// <summary>Each row loaded to each record count in turn: load rate, bytes per record, Get, Put and a 100-record scan.</summary>
    /// <param name="rows">The rows.</param>
    /// <param name="settings">Record counts and run lengths.</param>
    /// <param name="workDirectory">Where each row's directory is made and removed.</param>
    /// <param name="log">Receives a line per run.</param>
    /// <param name="loads">Receives load progress.</param>
    /// <param name="options">The options a row is opened with, given its directory; plain <see cref="StoreOptions"/> when left out.</param>
    public static IReadOnlyList<ScalePoint> Scale(
        IEnumerable<string> rows, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var points = new List<ScalePoint>();
        foreach (string row in rows)
        {
            string directory = Path.Combine(workDirectory, $"{row}-scale");
            try
            {
                using IKeyValueStore store = StoreCatalog.Open(row, options?.Invoke(directory) ?? new StoreOptions { Directory = directory });
                RecordSet records = settings.RecordSet();
                long loaded = 0;
                foreach (long target in settings.ScaleRecords)
                {
                    long started = Stopwatch.GetTimestamp();
                    records.Load(store, loaded, target - loaded, progress: LoadStatus.Relay(loads, $"{row}: {target:N0} records", loaded, target));
                    store.Flush();
                    double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
                    double rate = (target - loaded) / seconds;
                    loaded = target;
                    RunSettings oneThread = settings.Run(threads: 1);
                    points.Add(new ScalePoint(
                        row,
                        target,
                        rate,
                        DirectoryBytes(directory),
                        Run(
                            store,
                            settings.Shaped(
                                new WorkloadSpec
                                {
                                    Name = "get",
                                    Mix = OperationMix.ReadOnly,
                                    Distribution = KeyDistribution.Uniform,
                                    RecordCount = target,
                                }),
                            oneThread,
                            log),
                        Run(
                            store,
                            settings.Shaped(
                                new WorkloadSpec
                                {
                                    Name = "put",
                                    Mix = OperationMix.WriteOnly,
                                    Distribution = KeyDistribution.Uniform,
                                    RecordCount = target,
                                }),
                            oneThread,
                            log),
                        Run(
                            store,
                            settings.Shaped(
                                new WorkloadSpec
                                {
                                    Name = "scan-100",
                                    Mix = new(Scan: 1),
                                    Distribution = KeyDistribution.Uniform,
                                    RecordCount = target,
                                    MaxScanLength = 100,
                                }),
                            oneThread,
                            log)));
                }
            }
            finally
            {
                TryDelete(directory);
            }
        }

        return points;
    }

    private static IEnumerable<WorkloadResult> YcsbRuns(
        IKeyValueStore store, long records, IReadOnlyList<WorkloadSpec> workloads, SuiteSettings settings,
        Action<string>? log) =>
        workloads.OrderBy(workload => workload.Mix.Insert > 0 ? 1 : 0).Select(workload =>
            Run(
                store,
                settings.Shaped(workload).WithRecords(records),
                settings.Run(settings.YcsbThreads),
                log)).ToList();

    private static IEnumerable<WorkloadResult> SweepRuns(IKeyValueStore store, long records, SuiteSettings settings, Action<string>? log) =>
        (from mix in settings.SweepMixes
         from threads in settings.SweepThreads
         select Run(
             store,
             settings.Shaped(mix).WithRecords(records),
             settings.Run(threads),
             log)).ToList();

    private static IReadOnlyList<WorkloadResult> RunOnLoadedRows(
        IEnumerable<string> rows,
        SuiteSettings settings,
        string workDirectory,
        Action<string>? log,
        IProgress<LoadStatus>? loads,
        Func<IKeyValueStore, long, IEnumerable<WorkloadResult>> runs,
        Func<string, StoreOptions>? options = null)
    {
        var results = new List<WorkloadResult>();
        foreach (string row in rows)
        {
            string directory = Path.Combine(workDirectory, row);
            try
            {
                using IKeyValueStore store = StoreCatalog.Open(row, options?.Invoke(directory) ?? new StoreOptions { Directory = directory });
                long records = settings.Records;
                log?.Invoke($"{row}: loading {records:N0} records");
                RecordSet recordSet = settings.RecordSet();
                recordSet.Load(store, records, progress: LoadStatus.Relay(loads, $"{row}: {records:N0} records", 0, records));
                recordSet.Verify(store, records, sampleSize: 1_000).ThrowIfFailed(row);
                results.AddRange(runs(store, records));
            }
            finally
            {
                TryDelete(directory);
            }
        }

        return results;
    }

    private static WorkloadResult Run(IKeyValueStore store, WorkloadSpec workload, RunSettings settings, Action<string>? log)
    {
        WorkloadResult result = WorkloadRunner.Run(store, workload, settings);
        log?.Invoke(
            $"{store.Name} {workload.Name} x{settings.Threads}: {result.OperationsPerSecond:N0} ops/s, " +
                $"{result.WrongReads} wrong reads, {result.Errors} errors");
        return result;
    }

    private static long DirectoryBytes(string directory) =>
        Directory.Exists(directory) ? new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Sum(file => file.Length) : 0;

    private static void TryDelete(string directory)
    {
        try
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
        catch (IOException)
        {
            // The caller owns and removes the work directory; a row's leftovers are only disk space until then.
        }
    }
}
