using System.Buffers;

using FASTER.core;

using KvBench.Core;

using Session = FASTER.core.ClientSession<
    FASTER.core.SpanByte,
    FASTER.core.SpanByte,
    FASTER.core.SpanByte,
    KvBench.Stores.Faster.ReadTarget,
    FASTER.core.Empty,
    KvBench.Stores.Faster.ReadFunctions>;

namespace KvBench.Stores.Faster;

/// <summary>
/// FASTER's <c>FasterKV&lt;SpanByte, SpanByte&gt;</c>: a hash index over a hybrid log whose tail lives in memory and
/// whose older pages live in a file, written through FASTER's managed device (plain .NET file I/O, no native library).
/// </summary>
/// <remarks>
/// <para>
/// Durability: an acknowledged write lives in this process's memory until a checkpoint; a crash loses everything since
/// the last one. <see cref="IKeyValueStore.Flush"/> takes a full fold-over checkpoint (index and log) and waits for it,
/// and opening recovers from the latest checkpoint. So the declared tier, Buffered, is reached at Flush(), as the
/// contract allows for stores that checkpoint. Synced is not offered: the managed device opens every log and checkpoint
/// file with O_SYNC (seen with strace), so a finished checkpoint's data is on the device (though the directories of a
/// new checkpoint are never fsynced), but a Put acknowledged at "Synced" would still be a write to memory, and a
/// checkpoint per put is not how FASTER is meant to be used; a Synced table showing FASTER's in-memory puts would
/// compare unequal work. Dispose does not checkpoint: what was not flushed is lost, as after a crash.
/// </para>
/// <para>
/// A <see cref="ClientSession{Key, Value, Input, Output, Context, Functions}"/> serves one thread at a time, so each
/// thread that calls gets its own, made on its first call and kept until the store is disposed. Reads of records that
/// were evicted to the file go pending and are completed before the call returns.
/// </para>
/// <para>
/// One process at a time, enforced by <see cref="StoreDirectoryLock"/>: FASTER has no lock of its own (its device opens
/// files with FileShare.ReadWrite), so a second instance would open the same log and write over it. FASTER has no
/// read-only mode either: a read-only open takes the same lock,
/// recovers the latest checkpoint and refuses writes, so it works after the writer has closed, never alongside it.
/// </para>
/// </remarks>
internal sealed unsafe class FasterStore : StoreAdapter
{
    /// <summary>The longest key; it leaves a page room for a value of more than 7 MiB beside it.</summary>
    internal const int MaxKeyBytes = 1024 * 1024;

    /// <summary>8 MiB pages: a record (header, key and value) must fit in one page, so this sets both limits.</summary>
    internal const int PageSizeBits = 23;

    /// <summary>64 MiB of log in memory (eight pages): modest, since test runs open many stores at once.</summary>
    internal const int MemorySizeBits = 26;

    /// <summary>Twice the in-memory log and room for checkpoint metadata: what FASTER writes on its own after acknowledging.</summary>
    internal const long ReservedFreeBytes = (2L << MemorySizeBits) + (16L << 20);

    /// <summary>4 MiB of hash index (65,536 buckets of eight entries); FASTER adds overflow buckets as keys arrive.</summary>
    internal const long IndexSizeBytes = 1L << 22;

    // A record is an 8-byte RecordInfo, the key and the value, each a SpanByte (a 4-byte length, then the bytes),
    // the key padded to 8 bytes and the record as a whole too.
    private const int RecordInfoBytes = 8;
    private const int SpanByteLengthBytes = 4;
    private const int RecordAlignment = 8;

    private const int DeleteStripes = 64;

    private readonly StoreDirectoryLock _lock;
    private readonly IDevice _device;
    private readonly DeviceLogCommitCheckpointManager _checkpoints;
    private readonly FasterKV<SpanByte, SpanByte> _store;
    private readonly ReadFunctions _functions = new();
    // A session per thread: a ClientSession is single-threaded, and a thread's own costs an array read where a shared
    // pool's take and return cost tens of nanoseconds and a ThreadLocal lookup a few more (measured against the raw
    // baseline's single session). A session used by whichever thread holds its number is as FASTER allows: a session
    // enters FASTER's epoch per operation, not per thread.
    private readonly PerThread<Session> _sessions;
    private readonly Lock _flushGate = new();
    private readonly Lock[] _deleteGates = [.. Enumerable.Range(0, DeleteStripes).Select(_ => new Lock())];
    private long _pendingReads;

    private const string CheckpointDirectoryName = "checkpoints";

    public FasterStore(StoreRow row, StoreOptions options)
        : base(row, options)
    {
        bool readWrite = options.Access == StoreAccess.ReadWrite;
        Directory.CreateDirectory(options.Directory);
        if (readWrite)
        {
            KeepFreeSpace(
                ReservedFreeBytes,
                "once its log cannot flush a page to a full disk, FASTER 2.6.5 blocks the writer for good, and a " +
                    "checkpoint writes up to its in-memory log after the writes were acknowledged");
        }

        _lock = StoreDirectoryLock.Acquire(row.Name, options.Directory);
        var opened = new List<IDisposable> { _lock };
        try
        {
            _checkpoints = new DeviceLogCommitCheckpointManager(
                new LocalStorageNamedDeviceFactory(),
                new DefaultCheckpointNamingScheme(Path.Combine(options.Directory, CheckpointDirectoryName)),
                removeOutdated: true);
            opened.Add(_checkpoints);
            bool hasCheckpoint = _checkpoints.GetLogCheckpointTokens().Any();
            if (!readWrite && !hasCheckpoint)
            {
                // The directory was written to but never flushed: to a reader there is no store yet.
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }

            // Devices.CreateLogDevice gives the managed device on Linux (the native one needs libnative_device.so,
            // which the package does not carry); recoverDevice lets it find the segment files of an earlier run.
            _device = Devices.CreateLogDevice(Path.Combine(options.Directory, "log", "hlog"), preallocateFile: false, recoverDevice: true);
            opened.Add(_device);
            _store = new FasterKV<SpanByte, SpanByte>(new FasterKVSettings<SpanByte, SpanByte>
            {
                LogDevice = _device,
                PageSize = 1L << PageSizeBits,
                MemorySize = 1L << MemorySizeBits,
                IndexSize = IndexSizeBytes,
                CheckpointManager = _checkpoints,
                RemoveOutdatedCheckpoints = true,
            });
            opened.Add(_store);
            if (hasCheckpoint)
            {
                _store.Recover();
            }

            _sessions = new PerThread<Session>(() => _store.For(_functions).NewSession<ReadFunctions>());
        }
        catch
        {
            opened.Reverse();
            opened.ForEach(resource => resource.Dispose());
            throw;
        }
    }

    /// <summary>Whether <paramref name="directory"/> holds a FASTER store: its checkpoint directory, which a store gets at its first open.</summary>
    internal static bool HoldsStore(string directory) => Directory.Exists(Path.Combine(directory, CheckpointDirectoryName));

    /// <summary>What a page holds beside the longest key: a larger value makes FASTER throw "entry does not fit on page".</summary>
    internal static int MaxValueBytes { get; } = (1 << PageSizeBits) - RecordInfoBytes - AlignUp(SpanByteLengthBytes + MaxKeyBytes) - SpanByteLengthBytes;

    /// <summary>How many reads went pending (their record was on the device, not in memory) since open.</summary>
    internal long PendingReads => Interlocked.Read(ref _pendingReads);

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        Session session = _sessions.Current;
        Upsert(session, key, value);
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        var target = ReadTarget.Into(destination);
        return Read(key, ref target);
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        var target = ReadTarget.IntoArray();
        return Read(key, ref target) ? target.Array : null;
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        var target = ReadTarget.ExistenceOnly();
        return Read(key, ref target);
    }

    /// <remarks>
    /// FASTER's delete is blind (a record on the device gets a tombstone without being read), so its status cannot say
    /// whether something was removed. A read says so, and a lock per stripe of keys keeps two deletes of one key from
    /// both answering <see langword="true"/>; a concurrent put is ordered before or after the delete either way.
    /// </remarks>
    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        var hash = new HashCode();
        hash.AddBytes(key);
        lock (_deleteGates[(uint)hash.ToHashCode() % DeleteStripes])
        {
            Session session = _sessions.Current;
            var existence = ReadTarget.ExistenceOnly();
            if (!Read(session, key, ref existence))
            {
                return false;
            }

            fixed (byte* keyPointer = key)
            {
                var keyBytes = SpanByte.FromPointer(keyPointer, key.Length);
                Complete(session, session.Delete(ref keyBytes));
            }

            return true;
        }
    }

    /// <remarks>
    /// <para>
    /// The hash log has no key order, so this walks every record of the log (<c>Log.Scan</c>, every version of every
    /// key) and puts the matching keys in order. <c>Iterate</c>, meant to yield only the latest live version of each key,
    /// would save nothing: it builds a temporary store per call, and in 2.6.5 it is not exact either: when a
    /// key is deleted or overwritten after its record left the mutable region, the old version comes back as well, as
    /// a phantom with its old value, no tombstone and the key's last byte overwritten (delete one key and overwrite
    /// another, and the iterator yields one record more than there are live keys). So the iterator only nominates keys;
    /// each distinct one is then read the normal way, which sees deletes, takes FASTER's record locks and returns the
    /// current value, and keys that read as absent (phantoms, or keys deleted meanwhile) are dropped. A phantom that
    /// happens to spell a live key is a duplicate, and duplicates are skipped.
    /// </para>
    /// <para>
    /// The keys are copied out and the iterator disposed before the reads: its spans point into log pages that may be
    /// evicted once it moves on.
    /// </para>
    /// </remarks>
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scan(prefix.Span, from: [], int.MaxValue);

    /// <remarks>
    /// With no key order to seek in, every call walks the whole log as a prefix scan does, however small the limit;
    /// only the keys at or after the start are kept, and only the smallest of them are put in order and read, until
    /// <paramref name="limit"/> are live: O(n + k log n) comparisons and about k reads for n records and k results.
    /// </remarks>
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scan(prefix: [], startKey.Span, limit);

    /// <summary>
    /// Up to <paramref name="limit"/> live entries whose keys start with <paramref name="prefix"/> and are at or after
    /// <paramref name="from"/>, in order.
    /// </summary>
    private List<KeyValuePair<byte[], byte[]>> Scan(ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> from, int limit)
    {
        var candidates = new List<byte[]>();
        var matches = new List<KeyValuePair<byte[], byte[]>>();
        Session session = _sessions.Current;
        using (IFasterScanIterator<SpanByte, SpanByte> records = _store.Log.Scan(_store.Log.BeginAddress, _store.Log.TailAddress))
        {
            while (records.GetNext(out _))
            {
                ReadOnlySpan<byte> key = records.GetKey().AsReadOnlySpan();
                if (key.StartsWith(prefix) && key.SequenceCompareTo(from) >= 0)
                {
                    candidates.Add(key.ToArray());
                }
            }
        }

        byte[]? previous = null;
        foreach (byte[] key in Scans.Ascending(candidates, ByteKeys.Comparer))
        {
            if (matches.Count == limit)
            {
                break;
            }

            if (previous is not null && previous.AsSpan().SequenceEqual(key))
            {
                continue;
            }

            previous = key;
            var target = ReadTarget.IntoArray();
            if (Read(session, key, ref target))
            {
                matches.Add(new(key, target.Array!));
            }
        }

        return matches;
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        // FASTER has no batch or transaction: the items are upserts through one session, each visible at once.
        Session session = _sessions.Current;
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            Upsert(session, item.Key, item.Value);
        }
    }

    protected override void FlushCore()
    {
        if (Access != StoreAccess.ReadWrite)
        {
            return;
        }

        lock (_flushGate)
        {
            // Fold-over moves the whole log to the device (later writes go to new log addresses), so each checkpoint
            // writes only what changed since the last; the index is written too, so recovery need not rebuild it.
            (bool started, _) = _store.TakeFullCheckpointAsync(CheckpointType.FoldOver).AsTask().GetAwaiter().GetResult();
            if (!started)
            {
                // Only this lock starts checkpoints, so another one can only be FASTER finishing its own work; wait once.
                _store.CompleteCheckpointAsync().AsTask().GetAwaiter().GetResult();
                (started, _) = _store.TakeFullCheckpointAsync(CheckpointType.FoldOver).AsTask().GetAwaiter().GetResult();
                if (!started)
                {
                    throw new KeyValueStoreException($"{Name} could not start a checkpoint.");
                }
            }
        }
    }

    protected override void DisposeCore()
    {
        // Every call completes its pending operations before it returns, and StoreAdapter has waited for the calls in
        // flight, so no session has anything left to complete.
        foreach (Session session in _sessions.All())
        {
            session.Dispose();
        }

        _store.Dispose();
        _checkpoints.Dispose();
        _device.Dispose();
        _lock.Dispose();
    }

    private static int AlignUp(int length) => (length + RecordAlignment - 1) / RecordAlignment * RecordAlignment;

    private static void Upsert(Session session, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* keyPointer = key)
        fixed (byte* valuePointer = value)
        {
            var keyBytes = SpanByte.FromPointer(keyPointer, key.Length);
            var valueBytes = SpanByte.FromPointer(valuePointer, value.Length);
            Complete(session, session.Upsert(ref keyBytes, ref valueBytes));
        }
    }

    /// <summary>Waits for an upsert or delete that went pending (during a checkpoint's version change) and checks the outcome.</summary>
    private static void Complete(Session session, Status status)
    {
        if (status.IsPending)
        {
            session.CompletePending(wait: true);
        }
        else if (status.IsFaulted)
        {
            throw new KeyValueStoreException($"FASTER failed an operation: {status}.");
        }
    }

    private bool Read(ReadOnlySpan<byte> key, ref ReadTarget target)
    {
        Session session = _sessions.Current;
        return Read(session, key, ref target);
    }

    private bool Read(Session session, ReadOnlySpan<byte> key, ref ReadTarget target)
    {
        fixed (byte* keyPointer = key)
        {
            var keyBytes = SpanByte.FromPointer(keyPointer, key.Length);
            SpanByte input = default;
            Status status = session.Read(ref keyBytes, ref input, ref target);
            if (status.IsPending)
            {
                Interlocked.Increment(ref _pendingReads);
                session.CompletePendingWithOutputs(out CompletedOutputIterator<SpanByte, SpanByte, SpanByte, ReadTarget, Empty> completed, wait: true);
                using (completed)
                {
                    if (!completed.Next())
                    {
                        throw new KeyValueStoreException($"{Name}: a pending read completed without a result.");
                    }

                    status = completed.Current.Status;
                    target = completed.Current.Output;
                }
            }

            return status.IsFaulted
                ? throw new KeyValueStoreException($"{Name} failed a read: {status}.")
                : status.Found;
        }
    }
}
