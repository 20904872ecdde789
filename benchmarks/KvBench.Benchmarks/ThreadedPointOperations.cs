using System.Buffers;

using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Targets;
using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

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
    private IPointTarget? _target;
    private VersionedRecords? _records;
    private Barrier? _start;
    private Barrier? _end;
    private Thread[] _helpers = [];
    private Worker? _main;
    private Action<Worker>? _operation;
    private Exception? _failure;

    /// <summary>The row: an adapter or a raw driver.</summary>
    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = StoreNames.Memory;

    /// <summary>The length of every value: the size the goals are set at, to keep the suite short.</summary>
    [Params(128)]
    public int ValueBytes { get; set; } = 128;

    /// <summary>How many threads call at once.</summary>
    [Params(1, 2, 4)]
    public int Threads { get; set; } = 1;

    /// <summary>How many records are preloaded; tests shrink it, and <see cref="PreloadedRecords"/> does for some rows.</summary>
    public int RecordCount { get; set; } = PointOperations.DefaultRecordCount;

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
        _records = _preloaded.Records;
        _target = _preloaded.Target;

        _start = new Barrier(Threads);
        _end = new Barrier(Threads);
        _main = new Worker(this, 0);
        var ready = new CountdownEvent(Threads - 1);
        _helpers = [.. Enumerable.Range(1, Threads - 1).Select(thread => new Thread(() => Serve(thread, ready)) { IsBackground = true, Name = $"kvbench-caller-{thread}" })];
        Array.ForEach(_helpers, helper => helper.Start());
        ready.Wait();
        ready.Dispose();
    }

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    [WritesDataset]
    public void Put() => Run(static worker => worker.Put());

    /// <summary>Get through TryGet into a buffer of each thread's, reused by every call.</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public void Get() => Run(static worker => worker.Get());

    /// <summary>Stops the helper threads, then fails the case when any key does not hold the version written last.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        if (_start is not null)
        {
            _operation = null;
            _start.SignalAndWait();
            Array.ForEach(_helpers, helper => helper.Join());
            _start.Dispose();
            _end!.Dispose();
        }

        PreloadedTarget.CloseChecked(_preloaded);
    }

    /// <summary>Runs <paramref name="operation"/> on every thread's share of one invocation; throws what any thread threw.</summary>
    private void Run(Action<Worker> operation)
    {
        _operation = operation;
        _start!.SignalAndWait();
        try
        {
            operation(_main!);
        }
        finally
        {
            _end!.SignalAndWait();
        }

        if (_failure is { } failure)
        {
            throw new InvalidOperationException($"A calling thread of {Type} failed.", failure);
        }
    }

    /// <summary>A helper thread: makes its handle and buffer (on this thread, so they lie apart from the others'), then runs each invocation's share until cleanup.</summary>
    private void Serve(int thread, CountdownEvent ready)
    {
        var worker = new Worker(this, thread);
        ready.Signal();
        try
        {
            while (true)
            {
                _start!.SignalAndWait();
                if (_operation is not { } operation)
                {
                    return;
                }

                try
                {
                    operation(worker);
                }
                catch (Exception e)
                {
                    _failure = e;
                }
                finally
                {
                    _end!.SignalAndWait();
                }
            }
        }
        finally
        {
            worker.Dispose();
        }
    }

    /// <summary>One thread's handle, buffer and block of keys.</summary>
    private sealed class Worker : IDisposable
    {
        private readonly ArrayBufferWriter<byte> _buffer;
        private readonly IPointTarget _handle;
        private readonly IPointTarget _shared;
        private readonly VersionedRecords _records;
        private readonly int _first;
        private readonly int _count;
        private readonly int _operations;
        private int _cursor;

        public Worker(ThreadedPointOperations benchmark, int thread)
        {
            _records = benchmark._records!;
            _shared = benchmark._target!;
            _handle = thread == 0 ? _shared : _shared.ForAnotherThread();
            _first = (int)((long)_records.Count * thread / benchmark.Threads);
            _count = (int)((long)_records.Count * (thread + 1) / benchmark.Threads) - _first;
            _operations = OperationsPerInvoke / benchmark.Threads;
            _buffer = new ArrayBufferWriter<byte>(benchmark.ValueBytes);
        }

        public void Put()
        {
            // The cursor is kept in a local while the share runs: the workers' fields may share a cache line.
            int cursor = _cursor;
            for (int i = 0; i < _operations; i++)
            {
                int index = _first + cursor;
                cursor = cursor + 1 == _count ? 0 : cursor + 1;
                _handle.Put(_records.Key(index), _records.Rewrite(index));
            }

            _cursor = cursor;
        }

        public void Get()
        {
            int cursor = _cursor;
            for (int i = 0; i < _operations; i++)
            {
                int index = _first + cursor;
                cursor = cursor + 1 == _count ? 0 : cursor + 1;
                _buffer.ResetWrittenCount();
                if (!_handle.TryGet(_records.Key(index), _buffer))
                {
                    throw new InvalidDataException($"Record {index} was missing.");
                }
            }

            _cursor = cursor;
        }

        public void Dispose()
        {
            if (!ReferenceEquals(_handle, _shared))
            {
                _handle.Dispose();
            }
        }
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
