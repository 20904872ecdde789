using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Targets;
using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Memory;

namespace KvBench.Benchmarks;

/// <summary>
/// Get and Put from <see cref="Threads"/> threads at once, through each adapter and through each raw driver that serves
/// many threads, so what the contract costs under threads (the lifetime gate, the free-space reserve, a session per
/// thread) is a measured ratio, not an argument. The dataset and the value versioning are <see cref="PointOperations"/>'
/// (every measured write changes the bytes its key holds, and global cleanup checks each key holds the version written
/// last); each thread owns a contiguous block of the keys and walks it round-robin, so no two threads write one key.
/// One invocation is <see cref="OperationsPerInvoke"/> operations shared equally by the threads, so the time per
/// operation is the wall time divided by all of them: the inverse of throughput, flat when the threads scale perfectly.
/// Rows whose raw driver serves one thread (a single connection, read transaction or scratch file: LMDB_raw, the SQLite
/// raw rows, FileSystem_raw) are measured through the adapter only above one thread.
/// </summary>
/// <remarks>
/// Not part of the default evaluation, which must stay within 15 minutes: about 50 cases of a few seconds each, run with
/// <c>--filter '*ThreadedPointOperations*'</c>. Threads beyond the cores (4 on a 2-core machine) measure contention and
/// the cost of being switched out, in both rows alike.
/// </remarks>
[BenchmarkCategory(Categories.ThreadedPointOperations)]
[MeasuredAt(Durability.Buffered)]
[Config(typeof(OnlyRowsThatServeTheThreads))]
public class ThreadedPointOperations
{
    /// <summary>Operations per invocation, shared by the threads: divisible by every <see cref="Threads"/> value.</summary>
    public const int OperationsPerInvoke = 4096;

    private PreloadedTarget? _preloaded;
    private CallingThreads? _threads;
    private Action<CallingThreads.Share>? _put;
    private Action<CallingThreads.Share>? _get;

    /// <summary>The row: an adapter or a raw driver.</summary>
    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = MemoryRow.RowName;

    /// <summary>The length of every value: the size the goals are set at, to keep the suite short.</summary>
    [Params(128)]
    public int ValueBytes { get; set; } = 128;

    /// <summary>How many threads call at once.</summary>
    [Params(1, 2, 4)]
    public int Threads { get; set; } = 1;

    /// <summary>How many records are preloaded; tests shrink it, and <see cref="PreloadedRecords"/> does for some rows.</summary>
    public int RecordCount { get; set; } = PointOperations.DefaultRecordCount;

    /// <summary>
    /// The operations one invocation makes: <see cref="OperationsPerInvoke"/>, which the timings divide by, so only a
    /// test that runs every case once and times none may shrink it (divisible by every <see cref="Threads"/> value).
    /// </summary>
    public int Operations { get; set; } = OperationsPerInvoke;

    /// <summary>Every adapter and raw row that can be opened here; naive usages are single-threaded questions.</summary>
    public static IEnumerable<string> Types => PointTargets.Names.Where(name => RowVariants.Parse(name).Kind != RowVariantKind.Naive);

    [GlobalSetup]
    public void Setup()
    {
        if (Threads > 1 && !PointTargets.ServesManyThreads(Type))
        {
            throw new InvalidOperationException($"{Type} serves one thread only; it is measured at 1 thread.");
        }

        _preloaded = PreloadedTarget.Open(Type, ValueBytes, RecordCount);
        _threads = new CallingThreads(_preloaded.Target, _preloaded.Records, Threads, ValueBytes);

        // Made once, so no invocation allocates a delegate.
        int share = Operations / Threads;
        _put = thread => thread.Put(share);
        _get = thread => thread.Get(share);
    }

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    [WritesDataset]
    public void Put() => _threads!.Run(_put!);

    /// <summary>Get through TryGet into a buffer of each thread's, reused by every call.</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public void Get() => _threads!.Run(_get!);

    /// <summary>Stops the helper threads, then fails the case when any key does not hold the version written last.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _threads?.Dispose();
        PreloadedTarget.CloseChecked(_preloaded);
    }

    /// <summary>Leaves out the cases of a raw driver that serves one thread at more than one thread.</summary>
    private sealed class OnlyRowsThatServeTheThreads : ManualConfig
    {
        public OnlyRowsThatServeTheThreads() => AddFilter(new SimpleFilter(Serves));

        private static bool Serves(BenchmarkCase benchmarkCase) =>
            benchmarkCase.Parameters[nameof(Threads)] is not int threads
            || threads == 1
            || benchmarkCase.Parameters[nameof(Type)] is not string type
            || PointTargets.ServesManyThreads(type);
    }
}
