using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Sqlite;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What an import-contention worker did, for the caller to turn into an exit code.</summary>
/// <param name="Succeeded">Whether the store opened and no store call threw or read wrong bytes.</param>
/// <param name="OpenFailure">The error the open threw, or <see langword="null"/>.</param>
public sealed record ImportContentionOutcome(bool Succeeded, Exception? OpenFailure);

/// <summary>
/// One side of an import-contention run, inside a child process (<c>kvbench contend-worker</c>). It opens the store,
/// prints <see cref="WorkerMessage.Ready"/> with its clock (the cli once told to <see cref="OpenCommand"/>), then follows
/// the commands on its input: the ui runs a
/// phase of its workload for <see cref="AloneCommand"/> and <see cref="ImportCommand"/> (the second while looking for the
/// cli's batches) and reports at <c>stop</c>; the cli imports at <see cref="GoCommand"/> and reports when done.
/// </summary>
/// <remarks>
/// Timestamps are <see cref="Stopwatch.GetTimestamp"/>: on Linux, .NET reads <c>clock_gettime(CLOCK_MONOTONIC)</c>,
/// one clock for every process on the machine (<see cref="MonotonicClock"/> checks that in each process), so a ui
/// timestamp minus a cli timestamp is a real interval. The parent also checks it on every run, across the processes
/// (<see cref="WorkerMessage.Clock"/>), rather than trusting it.
/// </remarks>
public static class ImportContentionWorker
{
    /// <summary>Tells the ui to run its workload alone, then print <see cref="AloneCommand"/> with the result.</summary>
    public const string AloneCommand = "alone";

    /// <summary>Tells the ui to run its workload while it looks for the cli's batches, then print <see cref="ImportCommand"/> with the result.</summary>
    public const string ImportCommand = "import";

    /// <summary>
    /// Tells the cli to open the store. It starts with the ui, so the ui's phase alone need not wait for a second
    /// process to start, but opens only after that phase: until then it waits on its input and costs the ui nothing.
    /// </summary>
    public const string OpenCommand = "open";

    /// <summary>Tells the cli to import.</summary>
    public const string GoCommand = "go";

    /// <summary>"stop N": the ui keeps looking until it has seen N batches or the visibility deadline passes, then reports.</summary>
    public const string StopCommand = "stop";

    private const int ErrorsKept = 10;

    /// <summary>The records the cli imports: numbered, apart from the ui's, so the ui and the parent know every byte.</summary>
    public static RecordSet ImportRecords { get; } = WorkerRecords.For(MultiProcessProbe.FirstWorker, WorkloadSpec.DefaultValueBytes);

    /// <summary>The records the ui loads, reads and updates: the workload runner's own.</summary>
    public static RecordSet UiRecords { get; } = new(WorkloadSpec.DefaultValueBytes);

    /// <summary>Runs the worker until it is done, its input ends, or <see cref="ImportContentionWorkerOptions.MaxDuration"/> passes.</summary>
    public static ImportContentionOutcome Run(ImportContentionWorkerOptions options, TextReader commands, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(commands);
        ArgumentNullException.ThrowIfNull(output);
        var lines = new CommandLines(commands, Stopwatch.GetTimestamp() + Ticks(options.MaxDuration));
        if (options.Role == ImportContentionRole.Cli && lines.Next() != OpenCommand)
        {
            // Told to stop before it was told to open: the run ended without an import.
            return new ImportContentionOutcome(true, null);
        }

        long started = Stopwatch.GetTimestamp();
        IKeyValueStore store;
        try
        {
            store = StoreCatalog.Open(
                options.Store,
                new StoreOptions { Directory = options.Directory, Durability = options.Durability, Access = options.Access });
        }
        catch (Exception e)
        {
            var failure = new OpenFailure(e.GetType().Name, e.Message, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            Emit(output, options.Role == ImportContentionRole.Ui
                ? new WorkerMessage(WorkerMessage.Finished, Ui: new UiReport { OpenFailure = failure })
                : new WorkerMessage(WorkerMessage.Finished, Import: new ImportReport { OpenFailure = failure, BatchSize = options.Settings.BatchSize }));
            return new ImportContentionOutcome(false, e);
        }

        using (store)
        {
            return options.Role == ImportContentionRole.Ui ? RunUi(options, store, lines, output) : RunCli(options, store, lines, output);
        }
    }

    private static ImportContentionOutcome RunUi(ImportContentionWorkerOptions options, IKeyValueStore store, CommandLines lines, TextWriter output)
    {
        ImportContentionSettings settings = options.Settings;
        string? writeRefusedWith = null;
        if (options.Access != StoreAccess.ReadWrite)
        {
            // The same bytes the record already holds: if the write were accepted, nothing would change.
            try
            {
                store.Put(UiRecords.Key(0), UiRecords.Value(0));
            }
            catch (Exception e)
            {
                writeRefusedWith = e.GetType().Name;
            }
        }

        Emit(output, new WorkerMessage(WorkerMessage.Ready, Clock: Stopwatch.GetTimestamp()));
        WorkloadSpec workload = settings.UiWorkload(writes: options.Access == StoreAccess.ReadWrite);
        var acknowledged = new Dictionary<long, ulong>();
        var watcher = new BatchWatcher(store, settings, catchUp: options.Access == StoreAccess.Secondary);
        bool workloadsSucceeded = true;
        long batches = 0;
        while (lines.Next() is { } line)
        {
            string[] words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            if (words is [AloneCommand] or [ImportCommand])
            {
                if (words[0] == ImportCommand)
                {
                    watcher.Start();
                }

                WorkloadResult result = WorkloadRunner.Run(store, workload, settings.UiRun, acknowledged);
                workloadsSucceeded &= result.Succeeded;
                Emit(output, new WorkerMessage(words[0], Workload: result));
            }
            else if (words is [StopCommand, var count] && long.TryParse(count, NumberStyles.None, CultureInfo.InvariantCulture, out long parsed))
            {
                batches = parsed;
                break;
            }
        }

        watcher.Finish(batches, settings.VisibilityDeadline);

        // A store that holds acknowledged writes in its own memory (FASTER) reaches its tier only at Flush; the read-back
        // afterwards checks what the ui's writes became once the ui did what the store asks of a writer before it exits.
        string? flushError = null;
        try
        {
            store.Flush();
        }
        catch (Exception e)
        {
            flushError = $"{e.GetType().Name}: {e.Message}";
        }

        KeyValuePair<long, ulong>[] writes = [.. acknowledged.OrderBy(write => write.Key)];
        UiReport report = watcher.Report(flushError) with
        {
            WriteRefusedWith = writeRefusedWith,
            AcknowledgedIndexes = [.. writes.Select(write => write.Key)],
            AcknowledgedVersions = [.. writes.Select(write => write.Value)],
        };
        Emit(output, new WorkerMessage(WorkerMessage.Finished, Ui: report));
        return new ImportContentionOutcome(workloadsSucceeded && report.WatchErrorCount == 0 && report.WrongBatchValues == 0, null);
    }

    private static ImportContentionOutcome RunCli(ImportContentionWorkerOptions options, IKeyValueStore store, CommandLines lines, TextWriter output)
    {
        Emit(output, new WorkerMessage(WorkerMessage.Ready, Clock: Stopwatch.GetTimestamp()));
        int batchSize = options.Settings.BatchSize;
        var errors = new ErrorLog();
        List<long> acknowledged = [];
        List<long> acknowledgedAt = [];
        List<long> committedAt = [];
        List<long> checkpointTicks = [];
        List<int> walFrames = [];
        long batch = 0;
        long started = Stopwatch.GetTimestamp();
        if (lines.Next() == GoCommand)
        {
            started = Stopwatch.GetTimestamp();
            long stopAt = started + Ticks(options.Settings.ImportDuration);
            for (; Stopwatch.GetTimestamp() < stopAt; batch++)
            {
                List<KeyValuePair<byte[], byte[]>> records = [.. ImportRecords.Records(batch * batchSize, batchSize)];
                try
                {
                    long putStarted = Stopwatch.GetTimestamp();
                    store.PutMany(records);
                    acknowledgedAt.Add(Stopwatch.GetTimestamp());
                    acknowledged.Add(batch);
                    if (store is ISqliteCommitClock clock)
                    {
                        // This thread is the process's only writer, so the last commit is this batch's, unless it began before the call.
                        SqliteCommitTiming commit = clock.LastCommit;
                        bool ours = commit.VisibleAt >= putStarted;
                        committedAt.Add(ours ? commit.VisibleAt : 0);
                        checkpointTicks.Add(ours ? commit.CheckpointTicks : 0);
                        walFrames.Add(ours ? commit.WalFrames : 0);
                    }
                }
                catch (Exception e)
                {
                    errors.Add(e);
                }
            }

            try
            {
                store.Flush();
            }
            catch (Exception e)
            {
                errors.Add(e);
            }
        }

        var report = new ImportReport
        {
            BatchSize = batchSize,
            BatchesAttempted = batch,
            AcknowledgedBatches = acknowledged,
            AcknowledgedAt = acknowledgedAt,
            CommittedAt = committedAt,
            CheckpointTicks = checkpointTicks,
            WalFrames = walFrames,
            AutoCheckpointFrames = (store as ISqliteCommitClock)?.AutoCheckpointFrames ?? 0,
            Seconds = acknowledgedAt.Count > 0 ? Stopwatch.GetElapsedTime(started, acknowledgedAt[^1]).TotalSeconds : 0,
            ErrorCount = errors.Count,
            Errors = errors.First,
        };
        Emit(output, new WorkerMessage(WorkerMessage.Finished, Import: report));
        return new ImportContentionOutcome(errors.Count == 0, null);
    }

    private static void Emit(TextWriter output, WorkerMessage message)
    {
        output.WriteLine(JsonSerializer.Serialize(message, WorkerJsonContext.Default.WorkerMessage));
        output.Flush();
    }

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    /// <summary>Errors counted, the first few kept as <c>Type: message</c>.</summary>
    private sealed class ErrorLog
    {
        private readonly List<string> _first = [];

        public long Count { get; private set; }

        public IReadOnlyList<string> First => _first;

        public void Add(Exception e)
        {
            Count++;
            if (_first.Count < ErrorsKept)
            {
                _first.Add($"{e.GetType().Name}: {e.Message}");
            }
        }
    }

    /// <summary>The worker's input, read on a background thread so a wait for the next command has a deadline.</summary>
    private sealed class CommandLines
    {
        private readonly BlockingCollection<string> _lines = [];
        private readonly long _deadline;

        public CommandLines(TextReader input, long deadline)
        {
            _deadline = deadline;
            var thread = new Thread(() =>
            {
                while (input.ReadLine() is { } line)
                {
                    _lines.Add(line.Trim());
                }

                _lines.CompleteAdding();
            })
            {
                IsBackground = true,
                Name = "kvbench contend-worker input",
            };
            thread.Start();
        }

        /// <summary>The next line, or <see langword="null"/> once the input has ended or the worker's time is up.</summary>
        public string? Next()
        {
            TimeSpan remaining = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), _deadline);
            try
            {
                return remaining > TimeSpan.Zero && _lines.TryTake(out string? line, remaining) ? line : null;
            }
            catch (InvalidOperationException)
            {
                // Marked complete while waiting: the input ended.
                return null;
            }
        }
    }

    /// <summary>
    /// A thread of the ui that looks for the cli's batches in order: batch b is seen when its last record is there with
    /// the bytes the cli wrote (a store that commits a batch at once shows all of it; one that writes record by record,
    /// such as FileSystem, shows the last record last). It looks every <see cref="ImportContentionSettings.PollInterval"/>,
    /// and at once again after a find, since several batches may have landed since the last look.
    /// </summary>
    private sealed class BatchWatcher(IKeyValueStore store, ImportContentionSettings settings, bool catchUp)
    {
        private readonly List<long> _seenAt = [];
        private readonly ErrorLog _errors = new();
        private Thread? _thread;
        private long _target = -1;
        private long _deadline = long.MaxValue;
        private long _wrongValues;

        public void Start()
        {
            _thread ??= new Thread(Watch) { IsBackground = true, Name = "kvbench contend-worker batch watcher" };
            if (!_thread.IsAlive)
            {
                _thread.Start();
            }
        }

        /// <summary>Looks until <paramref name="batches"/> batches are seen or <paramref name="deadline"/> passes, then stops.</summary>
        public void Finish(long batches, TimeSpan deadline)
        {
            Volatile.Write(ref _deadline, Stopwatch.GetTimestamp() + Ticks(deadline));
            Volatile.Write(ref _target, batches);

            // A look is one store call; one that hangs past the deadline and a margin is left behind with the process.
            _thread?.Join(deadline + TimeSpan.FromSeconds(5));
        }

        /// <summary>What the thread saw, and <paramref name="flushError"/>, the ui's last Flush's error, among its errors.</summary>
        public UiReport Report(string? flushError) => new()
        {
            BatchSeenAt = [.. _seenAt],
            WrongBatchValues = _wrongValues,
            WatchErrorCount = _errors.Count + (flushError is null ? 0 : 1),
            WatchErrors = [.. _errors.First, .. flushError is null ? Array.Empty<string>() : [flushError]],
        };

        private void Watch()
        {
            var value = new ArrayBufferWriter<byte>(ImportRecords.ValueBytes);
            byte[] key = new byte[ImportRecords.KeyBytes];
            byte[] expected = new byte[ImportRecords.ValueBytes];
            while (true)
            {
                long target = Volatile.Read(ref _target);
                if (target >= 0 && (_seenAt.Count >= target || Stopwatch.GetTimestamp() >= Volatile.Read(ref _deadline)))
                {
                    return;
                }

                long last = ((_seenAt.Count + 1L) * settings.BatchSize) - 1;
                try
                {
                    // A secondary sees only what it has caught up with; catching up is part of what a reader pays to see.
                    if (catchUp)
                    {
                        store.Flush();
                    }

                    ImportRecords.WriteKey(last, key);
                    value.ResetWrittenCount();
                    if (store.TryGet(key, value))
                    {
                        long seen = Stopwatch.GetTimestamp();
                        ImportRecords.WriteValue(last, expected);
                        _wrongValues += value.WrittenSpan.SequenceEqual(expected) ? 0 : 1;
                        _seenAt.Add(seen);
                        continue;
                    }
                }
                catch (Exception e)
                {
                    _errors.Add(e);
                }

                Thread.Sleep(settings.PollInterval);
            }
        }
    }
}
