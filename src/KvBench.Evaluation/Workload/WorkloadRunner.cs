using System.Buffers;
using System.Diagnostics;

using KvBench.Core;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// Drives any <see cref="IKeyValueStore"/> with a <see cref="WorkloadSpec"/> from several threads for a fixed time after
/// a warm-up, times every operation into per-thread <see cref="LatencyHistogram"/>s (one per operation type and
/// interval of the run over time, allocated before the start) merged at the end, and checks every
/// read: a value must be a version of that key's record that some writer produced (see
/// <see cref="RecordSet.TryReadVersion"/>), and a record that must exist must be found.
/// </summary>
/// <remarks>
/// Deletes and existence checks. A delete is counted against its record before the call starts, so a read or
/// existence check that finds nothing is wrong only for a record no operation has deleted; a later write puts the
/// record back. Beside that loose check, each record keeps the outcome of its last write or delete that ran alone
/// (no other write or delete of it in flight): a read or existence check that overlapped no write or delete of its
/// record must see exactly that outcome, so a store that loses a delete, or returns an older version than the one
/// acknowledged, fails the run.
/// </remarks>
/// <remarks>
/// Each operation is timed with two <see cref="Stopwatch.GetTimestamp"/> calls around the store call alone: the value a
/// write puts is made before the clock starts and a read is checked after it stops (a read-modify-write makes its new
/// value between its read and its write, inside its time). Every write puts a new version, so it changes the bytes its
/// key holds. Inserts take indexes after the loaded records in strides of the thread count, so thread t inserts
/// records N + t, N + t + T, ...; the records every thread may read are those below N + T × (the fewest inserts any
/// thread has finished), all of them acknowledged.
/// </remarks>
public static class WorkloadRunner
{
    private static readonly double s_nanosecondsPerTick = 1e9 / Stopwatch.Frequency;

    /// <summary>
    /// What two back-to-back clock reads measure (the median of 1,001 pairs), subtracted from every timed interval:
    /// the interval of an operation includes one clock read's cost, which is of the order of the fastest rows' whole
    /// Get (BenchmarkDotNet's <c>TimingOverhead</c> measures reading the clock twice and recording). Throughput still
    /// pays all of it; the latencies do not pay the part the clock adds.
    /// </summary>
    private static readonly long s_clockTicks = CalibrateClock();

    /// <summary>Writes the workload's records in batches of 1,000 (the store's batch API), reporting progress in records.</summary>
    public static void Load(IKeyValueStore store, WorkloadSpec workload, IProgress<long>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(workload);
        workload.Records().Load(store, workload.RecordCount, batchSize: 1000, progress);
    }

    /// <summary>Runs <paramref name="workload"/> on <paramref name="store"/>, which holds its records (see <see cref="Load"/>).</summary>
    /// <param name="store">The store, holding the workload's records.</param>
    /// <param name="workload">What to run.</param>
    /// <param name="settings">How to drive it.</param>
    /// <param name="acknowledgedWrites">
    /// When given, receives every write the store acknowledged, as record index → the version it put (the latest of each
    /// record), so a caller can read every record back afterwards and check that nothing acknowledged was lost. Each
    /// record is then written by one thread only (thread t writes the records whose index is t modulo the thread count):
    /// with two threads writing one key, the write acknowledged last need not be the one the key holds.
    /// </param>
    public static WorkloadResult Run(IKeyValueStore store, WorkloadSpec workload, RunSettings settings, IDictionary<long, ulong>? acknowledgedWrites = null)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(workload);
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentOutOfRangeException.ThrowIfLessThan(settings.Threads, 1);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(settings.TimelineInterval, TimeSpan.Zero);
        if (acknowledgedWrites is not null && workload.RecordCount < settings.Threads)
        {
            throw new ArgumentException(
                $"Logging acknowledged writes gives each thread records of its own: {workload.RecordCount} records " +
                    $"cannot serve {settings.Threads} threads.",
                nameof(acknowledgedWrites));
        }

        if (acknowledgedWrites is not null && workload.Mix.Delete > 0)
        {
            throw new ArgumentException(
                "The log of acknowledged writes names the version each record holds; a run that deletes records cannot keep it.",
                nameof(acknowledgedWrites));
        }

        var shared = new SharedState(workload, settings, acknowledgedWrites is not null);
        var workers = Enumerable.Range(0, settings.Threads).Select(thread => new Worker(store, shared, thread)).ToArray();

        // Opened before the workers start, so they count into it (see SystemCallCounter).
        using SystemCallCounter? systemCalls = SystemCallCounter.TryOpen(out string? systemCallsUnmeasured);
        Thread[] threads = [.. workers.Select(worker => new Thread(worker.Run) { IsBackground = true, Name = $"kvbench-workload-{worker.Thread}" })];
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        shared.Start();

        // This thread only sleeps while the workers run: it reads what the process spent at the window's two ends.
        MonotonicClock.WaitUntil(shared.MeasureFrom);
        DateTimeOffset windowStartUtc = DateTimeOffset.UtcNow;
        ProcessCostSample windowStart = ProcessCostSample.Take(systemCalls);
        MonotonicClock.WaitUntil(shared.StopAt);
        ProcessCostSample windowEnd = ProcessCostSample.Take(systemCalls);
        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        ProcessCost cost = windowStart.Until(windowEnd, systemCallsUnmeasured, RunThreadsCpu(workers));

        TimeSpan elapsed = Stopwatch.GetElapsedTime(shared.MeasureFrom, shared.StopAt);
        foreach ((long index, ulong version) in workers.SelectMany(worker => worker.Acknowledged ?? []))
        {
            acknowledgedWrites![index] = version;
        }

        OperationType[] types = [.. Enum.GetValues<OperationType>().Where(type => workload.Mix.Of(type) > 0)];
        var intervals = new List<IReadOnlyDictionary<OperationType, LatencyHistogram>>(shared.Intervals);
        var timeline = new List<TimelinePoint>(shared.Intervals);
        for (int interval = 0; interval < shared.Intervals; interval++)
        {
            var byType = new Dictionary<OperationType, LatencyHistogram>();
            var all = new LatencyHistogram();
            foreach (OperationType type in types)
            {
                var merged = new LatencyHistogram();
                foreach (Worker worker in workers)
                {
                    merged.Add(worker.Intervals[interval][(int)type]!);
                }

                byType[type] = merged;
                all.Add(merged);
            }

            double startSeconds = interval * shared.Interval.TotalSeconds;
            double seconds = Math.Min(shared.Interval.TotalSeconds, elapsed.TotalSeconds - startSeconds);
            timeline.Add(new TimelinePoint(startSeconds, seconds, seconds > 0 ? all.Count / seconds : 0, all.ValueAt(99)));
            intervals.Add(byType);
        }

        List<OperationResult> operations = [];
        foreach (OperationType type in types)
        {
            var merged = new LatencyHistogram();
            foreach (IReadOnlyDictionary<OperationType, LatencyHistogram> interval in intervals)
            {
                merged.Add(interval[type]);
            }

            operations.Add(new OperationResult(type, merged.Count / elapsed.TotalSeconds, merged.Summarize()));
        }

        return new WorkloadResult
        {
            Store = store.Name,
            Workload = workload,
            Settings = settings,
            Elapsed = elapsed,
            Operations = operations,
            WindowStartUtc = windowStartUtc,
            Timeline = timeline,
            IntervalHistograms = settings.KeepIntervalHistograms ? intervals : null,
            Cost = cost,
            WrongReads = workers.Sum(worker => worker.WrongReads),
            CheckedReads = workers.Sum(worker => worker.CheckedReads),
            Errors = workers.Sum(worker => worker.Errors),
            FirstError = workers.Select(worker => worker.FirstError).FirstOrDefault(error => error is not null),
            FirstWrongRead = workers.Select(worker => worker.FirstWrongRead).FirstOrDefault(read => read is not null),
        };
    }

    /// <summary>The workers' own CPU times over their lives added up, or <see langword="null"/> when any could not read its own.</summary>
    private static CpuSplit? RunThreadsCpu(Worker[] workers) =>
        workers.All(worker => worker.Cpu is not null) ? workers.Aggregate(default(CpuSplit), (sum, worker) => sum + worker.Cpu!.Value) : null;

    private static long CalibrateClock()
    {
        long[] pairs = new long[1_001];
        for (int i = 0; i < pairs.Length; i++)
        {
            long first = Stopwatch.GetTimestamp();
            pairs[i] = Stopwatch.GetTimestamp() - first;
        }

        Array.Sort(pairs);
        return pairs[pairs.Length / 2];
    }

    /// <summary>What every thread of one run shares: the records, the versions issued, the insert frontier and the clock.</summary>
    private sealed class SharedState
    {
        private readonly long[] _insertsDone;
        private readonly ManualResetEventSlim _started = new();

        public SharedState(WorkloadSpec workload, RunSettings settings, bool logsWrites)
        {
            Workload = workload;
            Settings = settings;
            LogsWrites = logsWrites;
            Records = workload.Records();
            _insertsDone = new long[settings.Threads];

            // Versions written by this run start above every version an earlier run on the same store wrote (the clock's
            // ticks grow faster than any run issues versions to one key), so this run's writes change the bytes they
            // replace, and a read can tell an earlier run's version from a version nobody wrote.
            VersionBase = (ulong)DateTime.UtcNow.Ticks;
            double total = Enum.GetValues<OperationType>().Sum(workload.Mix.Of);
            if (total <= 0)
            {
                throw new ArgumentException($"Workload {workload.Name} has no operations.", nameof(workload));
            }

            double cumulative = 0;
            Thresholds = [.. Enum.GetValues<OperationType>().Select(type => cumulative += workload.Mix.Of(type) / total)];
            // A run far longer than its interval widens it, so a thread's histograms stay within a bounded memory.
            Interval = settings.Duration / settings.TimelineInterval > MaxIntervals ? settings.Duration / MaxIntervals : settings.TimelineInterval;
            IntervalTicks = Math.Max(1, Ticks(Interval));
            Intervals = (int)Math.Max(1, Math.Ceiling(settings.Duration / Interval));
        }

        /// <summary>The most intervals a run is cut into: ten minutes at the default interval.</summary>
        public const int MaxIntervals = 600;

        /// <summary>The length of an interval of the run over time.</summary>
        public TimeSpan Interval { get; }

        /// <summary>The same, in timestamp ticks.</summary>
        public long IntervalTicks { get; }

        /// <summary>The intervals of the measured window; the last may be shorter than the others.</summary>
        public int Intervals { get; }

        public WorkloadSpec Workload { get; }

        public RunSettings Settings { get; }

        /// <summary>Whether every acknowledged write is logged, each record then written by one thread only.</summary>
        public bool LogsWrites { get; }

        public RecordSet Records { get; }

        public VersionTable Versions { get; } = new();

        /// <summary>Each record's count of deletes, counted before the call starts.</summary>
        public VersionTable Deletes { get; } = new();

        /// <summary>
        /// Each record's writes and deletes: how many have started (the high bits, from <see cref="PendingBits"/> up) and
        /// how many are in flight (the low bits), in one word so one atomic step changes both. Kept apart, a writer that
        /// had counted its start but not yet its flight let a later writer believe it ran alone.
        /// </summary>
        public VersionTable Activity { get; } = new();

        /// <summary>Each record's outcome of its last write or delete that ran alone: <see cref="Unknown"/>, <see cref="Deleted"/>, or a version + 2.</summary>
        public VersionTable Settled { get; } = new();

        public const long Unknown = 0;

        public const long Deleted = 1;

        /// <summary>The bits of <see cref="Activity"/> that count writes in flight: far more than any run has threads.</summary>
        private const int PendingBits = 20;

        private const long PendingMask = (1L << PendingBits) - 1;

        /// <summary>Whether record <paramref name="index"/> has been deleted at some point of this run, so a miss is no wrong read.</summary>
        public bool WasDeleted(long index) => Deletes.Latest(index) > 0;

        /// <summary>
        /// Marks a write or delete of record <paramref name="index"/> as started; whether it started alone, and the
        /// ticket <see cref="EndWrite"/> takes.
        /// </summary>
        public (long Ticket, bool Alone) BeginWrite(long index)
        {
            long activity = Interlocked.Add(ref Activity.Slot(index), (1L << PendingBits) + 1);
            return (activity >> PendingBits, (activity & PendingMask) == 1);
        }

        /// <summary>
        /// Marks the write or delete as done, with <paramref name="outcome"/> (<see cref="Unknown"/> when it failed): the
        /// record's settled outcome when no other write or delete of it ran meanwhile, else unknown until one runs alone.
        /// </summary>
        public void EndWrite(long index, (long Ticket, bool Alone) begun, long outcome)
        {
            bool alone = begun.Alone && StartsOf(index) == begun.Ticket;
            Volatile.Write(ref Settled.Slot(index), alone ? outcome : Unknown);

            // Checked again after the write: another writer may have begun between the check above and the write, and
            // this outcome must not stand for the value it puts. This write is still in flight here, so no reader took
            // the outcome in between.
            if (alone && StartsOf(index) != begun.Ticket)
            {
                Volatile.Write(ref Settled.Slot(index), Unknown);
            }

            Interlocked.Decrement(ref Activity.Slot(index));
        }

        /// <summary>
        /// What a reader of record <paramref name="index"/> sees before its call: the starts so far, and the settled
        /// outcome when nothing is in flight.
        /// </summary>
        public (long Starts, long Outcome) Observe(long index)
        {
            long activity = Volatile.Read(ref Activity.Slot(index));
            bool idle = (activity & PendingMask) == 0;
            return (activity >> PendingBits, idle ? Volatile.Read(ref Settled.Slot(index)) : Unknown);
        }

        /// <summary>
        /// The outcome a read that began at <paramref name="observed"/> must see exactly, or <see cref="Unknown"/> when
        /// a write or delete overlapped it.
        /// </summary>
        public long ExactOutcome(long index, (long Starts, long Outcome) observed) =>
            observed.Outcome != Unknown && StartsOf(index) == observed.Starts ? observed.Outcome : Unknown;

        private long StartsOf(long index) => Volatile.Read(ref Activity.Slot(index)) >> PendingBits;

        /// <summary>This run's first version; every version it writes is this plus the key's count of writes.</summary>
        public ulong VersionBase { get; }

        /// <summary>The next version of record <paramref name="index"/> for a writer of this run.</summary>
        public ulong NextVersion(long index) => VersionBase + Versions.Next(index);

        /// <summary>
        /// Whether a reader may see <paramref name="version"/> of record <paramref name="index"/>: one written before
        /// this run, or one this run has issued.
        /// </summary>
        public bool MayHold(long index, ulong version) => version < VersionBase || version <= VersionBase + Versions.Latest(index);

        /// <summary>The cumulative share of each operation type, in enum order: a uniform draw picks the first above it.</summary>
        public double[] Thresholds { get; }

        public long StartAt { get; private set; }

        public long MeasureFrom { get; private set; }

        public long StopAt { get; private set; }

        /// <summary>Records every thread may read: the loaded ones and every insert below the slowest thread's stride.</summary>
        public long Readable()
        {
            long fewest = long.MaxValue;
            foreach (ref long done in _insertsDone.AsSpan())
            {
                fewest = Math.Min(fewest, Volatile.Read(ref done));
            }

            return Workload.RecordCount + (fewest * _insertsDone.Length);
        }

        public void InsertDone(int thread) => Interlocked.Increment(ref _insertsDone[thread]);

        public void Start()
        {
            StartAt = Stopwatch.GetTimestamp();
            MeasureFrom = StartAt + Ticks(Settings.Warmup);
            StopAt = MeasureFrom + Ticks(Settings.Duration);
            _started.Set();
        }

        public void WaitForStart() => _started.Wait();

        private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);
    }

    /// <summary>One thread: its random stream, its key chooser, its buffers and its histograms.</summary>
    private sealed class Worker
    {
        private readonly IKeyValueStore _store;
        private readonly SharedState _shared;
        private readonly Random _random;
        private readonly KeyChooser _chooser;
        private readonly byte[] _key;
        private readonly byte[] _value;
        private readonly ArrayBufferWriter<byte> _read;
        private int _keyLength;
        private long _inserts;

        public Worker(IKeyValueStore store, SharedState shared, int thread)
        {
            _store = store;
            _shared = shared;
            Thread = thread;
            _random = new Random(shared.Settings.RandomStream + thread);
            _chooser = KeyChooser.Create(shared.Workload.Distribution, shared.Workload.RecordCount, shared.Readable, shared.Workload.ZipfianConstant);
            _key = new byte[shared.Records.MaxKeyBytes];
            _value = new byte[shared.Records.MaxValueBytes];
            _read = new ArrayBufferWriter<byte>(Math.Max(1, shared.Records.MaxValueBytes));
            // Every interval's histograms exist before the start, so no operation waits on an allocation when the clock
            // crosses into the next interval; a type the mix never picks gets none.
            Intervals = [.. Enumerable.Range(0, shared.Intervals).Select(_ => Enum.GetValues<OperationType>()
                .Select(type => shared.Workload.Mix.Of(type) > 0 ? new LatencyHistogram() : null).ToArray())];
            Acknowledged = shared.LogsWrites ? [] : null;
        }

        public int Thread { get; }

        /// <summary>This thread's histograms per interval of the run over time, then per operation type (null for a type not in the mix).</summary>
        public LatencyHistogram?[][] Intervals { get; }

        /// <summary>This thread's acknowledged writes (record index → version), when the run logs them; no other thread writes these records.</summary>
        public Dictionary<long, ulong>? Acknowledged { get; }

        public long WrongReads { get; private set; }

        public long CheckedReads { get; private set; }

        public long Errors { get; private set; }

        public string? FirstError { get; private set; }

        public string? FirstWrongRead { get; private set; }

        /// <summary>This thread's user and system time over its life, read as it finishes, or <see langword="null"/> where it cannot be read.</summary>
        public CpuSplit? Cpu { get; private set; }

        public void Run()
        {
            RunOperations();

            // Read once, at the end of the thread's life, so nothing the thread reported earlier holds the split back (see ThreadCpuTime).
            Cpu = ThreadCpuTime.Read();
        }

        private void RunOperations()
        {
            _shared.WaitForStart();
            double? perThreadRate = _shared.Settings.TargetOperationsPerSecond / _shared.Settings.Threads;
            long interval = perThreadRate is { } rate ? (long)(Stopwatch.Frequency / rate) : 0;
            long intended = _shared.StartAt;
            int slot = 0;
            long slotEnd = _shared.MeasureFrom + _shared.IntervalTicks;
            LatencyHistogram?[] histograms = Intervals[0];
            while (true)
            {
                if (interval > 0)
                {
                    intended += interval;
                    MonotonicClock.WaitUntil(intended);
                }

                long start = Stopwatch.GetTimestamp();

                // An open loop's operation belongs to the window it was scheduled in, not the one it ran in: one due in
                // the warm-up but run late, behind a stall, is not measured, and none due after the window is run.
                long scheduled = interval > 0 ? intended : start;
                if (start >= _shared.StopAt || scheduled >= _shared.StopAt)
                {
                    return;
                }

                OperationType type = PickOperation();
                try
                {
                    long elapsed = Execute(type, interval > 0 ? intended : -1);
                    if (scheduled >= _shared.MeasureFrom)
                    {
                        // One comparison per operation; the next interval's histograms are taken only when it begins.
                        while (scheduled >= slotEnd && slot < Intervals.Length - 1)
                        {
                            slot++;
                            slotEnd += _shared.IntervalTicks;
                            histograms = Intervals[slot];
                        }

                        histograms[(int)type]!.Record((long)(Math.Max(0, elapsed - s_clockTicks) * s_nanosecondsPerTick));
                    }
                }
                catch (Exception e) when (e is not OutOfMemoryException)
                {
                    Errors++;
                    FirstError ??= $"{type}: {e.GetType().Name}: {e.Message}";
                }
            }
        }

        /// <summary>Runs one operation; returns its duration in timestamp ticks, from <paramref name="intendedStart"/> when the loop is open.</summary>
        private long Execute(OperationType type, long intendedStart)
        {
            long index;
            long start;
            long end;
            switch (type)
            {
                case OperationType.Read:
                    index = Choose();
                    (long, long) observed = _shared.Observe(index);
                    start = Stopwatch.GetTimestamp();
                    bool found = _store.TryGet(Key, _read);
                    end = Stopwatch.GetTimestamp();
                    Check(index, found ? _read.WrittenSpan : default, found, _shared.ExactOutcome(index, observed));
                    return end - Begin(start, intendedStart);

                case OperationType.HasKey:
                    index = Choose();
                    (long, long) before = _shared.Observe(index);
                    start = Stopwatch.GetTimestamp();
                    bool exists = _store.ContainsKey(Key);
                    end = Stopwatch.GetTimestamp();
                    CheckExists(index, exists, _shared.ExactOutcome(index, before));
                    return end - Begin(start, intendedStart);

                case OperationType.Update:
                    index = Choose(write: true);
                    ulong version = _shared.NextVersion(index);
                    int length = _shared.Records.WriteValue(index, version, _value);
                    end = Put(index, version, length, out start);
                    Acknowledge(index, version);
                    return end - Begin(start, intendedStart);

                case OperationType.Insert:
                    index = _shared.Workload.RecordCount + (_inserts * _shared.Settings.Threads) + Thread;
                    _keyLength = _shared.Records.WriteKey(index, _key);
                    int inserted = _shared.Records.WriteValue(index, _shared.VersionBase, _value);
                    end = Put(index, _shared.VersionBase, inserted, out start);
                    Acknowledge(index, _shared.VersionBase);
                    _inserts++;
                    _shared.InsertDone(Thread);
                    return end - Begin(start, intendedStart);

                case OperationType.ReadModifyWrite:
                    index = Choose(write: true);
                    (long, bool) begun = _shared.BeginWrite(index);
                    ulong next = _shared.NextVersion(index);
                    long outcome = SharedState.Unknown;
                    bool present;
                    try
                    {
                        start = Stopwatch.GetTimestamp();
                        present = _store.TryGet(Key, _read);
                        int modified = _shared.Records.WriteValue(index, next, _value);
                        _store.Put(Key, _value.AsSpan(0, modified));
                        end = Stopwatch.GetTimestamp();
                        outcome = (long)next + 2;
                    }
                    finally
                    {
                        _shared.EndWrite(index, begun, outcome);
                    }

                    Acknowledge(index, next);
                    Check(index, present ? _read.WrittenSpan : default, present, SharedState.Unknown);
                    return end - Begin(start, intendedStart);

                case OperationType.Delete:
                    index = Choose(write: true);

                    // Counted before the call starts: a reader that misses the record while the delete is in flight must know it may.
                    _shared.Deletes.Next(index);
                    (long, bool) deleting = _shared.BeginWrite(index);
                    long deleted = SharedState.Unknown;
                    try
                    {
                        start = Stopwatch.GetTimestamp();
                        _store.Delete(Key);
                        end = Stopwatch.GetTimestamp();
                        deleted = SharedState.Deleted;
                    }
                    finally
                    {
                        _shared.EndWrite(index, deleting, deleted);
                    }

                    return end - Begin(start, intendedStart);

                case OperationType.Scan:
                    index = _chooser.Next(_random);
                    int scanLength = 1 + _random.Next(_shared.Workload.MaxScanLength);
                    byte[] startKey = _shared.Records.Key(index);
                    start = Stopwatch.GetTimestamp();
                    List<KeyValuePair<byte[], byte[]>> entries = [.. _store.ScanFrom(startKey, scanLength)];
                    end = Stopwatch.GetTimestamp();
                    CheckScan(index, startKey, scanLength, entries);
                    return end - Begin(start, intendedStart);

                default:
                    throw new InvalidOperationException($"The runner has no way to run a {type} operation.");
            }
        }

        /// <summary>The current record's key, as <see cref="Choose"/> or an insert wrote it.</summary>
        private ReadOnlySpan<byte> Key => _key.AsSpan(0, _keyLength);

        /// <summary>
        /// Puts the current key with the first <paramref name="length"/> bytes of the value buffer, which hold version
        /// <paramref name="version"/> of record <paramref name="index"/>, timed around the call alone; returns its end and gives its start.
        /// </summary>
        private long Put(long index, ulong version, int length, out long start)
        {
            (long, bool) begun = _shared.BeginWrite(index);
            long outcome = SharedState.Unknown;
            try
            {
                start = Stopwatch.GetTimestamp();
                _store.Put(Key, _value.AsSpan(0, length));
                long end = Stopwatch.GetTimestamp();
                outcome = (long)version + 2;
                return end;
            }
            finally
            {
                _shared.EndWrite(index, begun, outcome);
            }
        }

        /// <summary>Picks the record the next operation touches, writes its key and empties the read buffer.</summary>
        /// <param name="write">Whether the operation writes: when the run logs writes, the record is moved to the nearest one this thread owns.</param>
        private long Choose(bool write = false)
        {
            long index = _chooser.Next(_random);
            if (write && _shared.LogsWrites)
            {
                // Down to this thread's record in the chosen one's stride of thread-count records, so it is readable
                // wherever the chosen one was; the first stride has a record of every thread (at least as many records as threads).
                int threads = _shared.Settings.Threads;
                long owned = index - (index % threads) + Thread;
                index = owned > index && owned >= threads ? owned - threads : owned;
            }

            _keyLength = _shared.Records.WriteKey(index, _key);
            _read.ResetWrittenCount();
            return index;
        }

        private void Acknowledge(long index, ulong version)
        {
            if (Acknowledged is not null)
            {
                Acknowledged[index] = version;
            }
        }

        private static long Begin(long start, long intendedStart) => intendedStart >= 0 ? Math.Min(start, intendedStart) : start;

        private OperationType PickOperation()
        {
            double draw = _random.NextDouble();
            double[] thresholds = _shared.Thresholds;
            for (int i = 0; i < thresholds.Length - 1; i++)
            {
                if (draw < thresholds[i])
                {
                    return (OperationType)i;
                }
            }

            return (OperationType)(thresholds.Length - 1);
        }

        /// <summary>
        /// A read must find a version some writer produced for the record, or nothing when the record has been deleted;
        /// when no write or delete overlapped it (<paramref name="exact"/> is not <see cref="SharedState.Unknown"/>) it must
        /// see exactly the outcome of the last one.
        /// </summary>
        private void Check(long index, ReadOnlySpan<byte> value, bool found, long exact)
        {
            CheckedReads++;
            bool right = found
                ? _shared.Records.TryReadVersion(index, value, out ulong version)
                    && _shared.MayHold(index, version)
                    && (exact == SharedState.Unknown || exact == (long)version + 2)
                : exact == SharedState.Deleted || (exact == SharedState.Unknown && _shared.WasDeleted(index));
            if (!right)
            {
                WrongReads++;
                FirstWrongRead ??= DescribeWrongRead(index, value, found, exact);
            }
        }

        /// <summary>An existence check must say yes for a record never deleted, and when nothing overlapped it, what the last write or delete left.</summary>
        private void CheckExists(long index, bool exists, long exact)
        {
            CheckedReads++;
            bool right = exact switch
            {
                SharedState.Unknown => exists || _shared.WasDeleted(index),
                SharedState.Deleted => !exists,
                _ => exists,
            };
            if (!right)
            {
                WrongReads++;
                FirstWrongRead ??= exists
                    ? $"record {index} was reported present after its delete was acknowledged"
                    : $"record {index} was reported absent, though " +
                        $"{(exact == SharedState.Unknown ? "no operation had deleted it" : "a write had put it back")}";
            }
        }

        /// <summary>What a wrong read returned, so a rare one (one in tens of thousands) can be told apart from another kind.</summary>
        private string DescribeWrongRead(long index, ReadOnlySpan<byte> value, bool found, long exact)
        {
            if (!found)
            {
                return exact == SharedState.Unknown
                    ? $"record {index} was not found"
                    : $"record {index} was not found after a write of version {exact - 2} was acknowledged";
            }

            if (!_shared.Records.TryReadVersion(index, value, out ulong version))
            {
                return $"record {index} held {value.Length} bytes that are no version of it (first bytes " +
                    $"{Convert.ToHexString(value[..Math.Min(16, value.Length)])})";
            }

            return exact switch
            {
                SharedState.Deleted => $"record {index} held version {version} after its delete was acknowledged",
                SharedState.Unknown =>
                    $"record {index} held version {version}, which no writer had issued yet (this run's versions " +
                        $"start at {_shared.VersionBase})",
                _ => $"record {index} held version {version} after version {exact - 2} was acknowledged",
            };
        }

        /// <summary>
        /// A scan returns at most its length of keys, ascending, from its start key (a record, so the first, unless it has
        /// been deleted), each record's value right; keys of no record are only ordered.
        /// </summary>
        private void CheckScan(long startIndex, byte[] startKey, int length, List<KeyValuePair<byte[], byte[]>> entries)
        {
            bool startsAtItsRecord = entries.Count > 0 && entries[0].Key.AsSpan().SequenceEqual(startKey);
            bool startsAfterIt = entries.Count == 0 || ByteKeys.Comparer.Compare(entries[0].Key, startKey) > 0;
            if (entries.Count > length || !(startsAtItsRecord || (startsAfterIt && _shared.WasDeleted(startIndex))))
            {
                WrongReads++;
                FirstWrongRead ??= $"a scan of up to {length} from record {startIndex} returned {entries.Count} " +
                    $"entries, {(startsAtItsRecord ? "more than asked" : "not starting at its record")}";
            }

            byte[] previous = [];
            foreach ((byte[] key, byte[] value) in entries)
            {
                if (ByteKeys.Comparer.Compare(key, previous) <= 0 && previous.Length > 0)
                {
                    WrongReads++;
                }

                previous = key;
                if (_shared.Records.TryIndexOf(key, out long index))
                {
                    Check(index, value, found: true, SharedState.Unknown);
                }
            }
        }
    }
}
