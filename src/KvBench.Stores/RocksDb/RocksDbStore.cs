using System.Buffers;

using KvBench.Core;

using static KvBench.Stores.RocksDb.RocksDbNative;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// RocksDB 7.8 (Debian's librocksdb7.8) through its C API, default column family, default bytewise comparator (the
/// order of <see cref="ByteKeys.Comparer"/>). Writes go through the WAL: Buffered leaves <c>WriteOptions.sync</c>
/// off, so a write is in the OS cache when acknowledged; Synced turns it on, so each write waits for the device.
/// Other processes open read-only (the files as they were at open) or as a secondary that catches up on Flush.
/// </summary>
/// <remarks>
/// RocksDB is safe to call from many threads at once, so calls take no lock here; <see cref="RocksDbHandle"/> keeps
/// the database open until the last call in flight returns. Reads use <c>rocksdb_get_pinned</c>, which lends the value
/// where RocksDB holds it, so a lookup copies nothing and TryGet copies once, into the caller's buffer.
/// </remarks>
internal sealed class RocksDbStore : StoreAdapter
{
    /// <summary>
    /// A write batch takes keys up to 4 GiB - 1, but "RocksDB is not designed for large keys" and recommends at most
    /// 8 MB (RocksDB FAQ); the adapter holds keys to that recommendation.
    /// </summary>
    internal const int MaxKeyBytes = 8 * 1024 * 1024;

    private const int ScanPageEntries = 1024;
    private const int ScanPageBytes = 4 * 1024 * 1024;

    private readonly Lock _deleteGate = new();
    private readonly RocksDbHandle _db;
    private readonly bool _syncedWrites;
    private readonly string? _secondaryPath;

    /// <summary>Two of RocksDB's default 64 MiB memtables and room for the WAL and manifest: what it writes after acknowledging.</summary>
    internal const long ReservedFreeBytes = (2 * (64L << 20)) + (16L << 20);

    /// <summary>Whether <paramref name="directory"/> holds a RocksDB database: the CURRENT file that names its manifest.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, "CURRENT"));

    public RocksDbStore(string name, StoreOptions options)
        : base(name, Declared, options)
    {
        string directory = Path.GetFullPath(options.Directory);
        _syncedWrites = options.Durability == Durability.Synced;
        if (options.Access == StoreAccess.ReadWrite)
        {
            Directory.CreateDirectory(directory);
            KeepFreeSpace(
                ReservedFreeBytes,
                "a write that finds the disk full makes Debian's RocksDB 7.8.3 abort the process (an assertion in its WAL writer), and a memtable flush writes up to 64 MiB after its writes were acknowledged");
        }
        else if (options.Access == StoreAccess.Secondary)
        {
            // A secondary keeps its own info log; a directory of its own per instance lets several follow one writer.
            _secondaryPath = Path.Combine(directory, $"secondary-{Environment.ProcessId}-{Guid.NewGuid():N}");
        }

        try
        {
            _db = Open(name, directory, options.Access, _secondaryPath, _syncedWrites);
        }
        catch
        {
            DeleteSecondaryDirectory();
            throw;
        }
    }

    internal static StoreCapabilities Declared { get; } = new()
    {
        MaxKeyBytes = MaxKeyBytes,
        // RocksDB recommends values up to 3 GB (a write batch takes 4 GiB - 1); Get returns a .NET array, which
        // holds at most Array.MaxLength bytes, so that is the binding limit. A value that long was seen to round-trip
        // through the WAL and, after a reopen, from a table file, the process peaking near six times its size.
        MaxValueBytes = Array.MaxLength,
        GrowsWithoutRestart = true,
        MultiProcess = MultiProcessLevel.OneWriter,
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };

    protected override unsafe void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint error = 0;
        fixed (byte* keyBytes = key)
        fixed (byte* valueBytes = value)
        {
            rocksdb_put(db.Db, db.WriteOptions, keyBytes, (nuint)key.Length, valueBytes, (nuint)value.Length, &error);
        }

        ThrowIfFailed(error, "put");
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint slice = GetPinned(db, key);
        if (slice == 0)
        {
            return false;
        }

        try
        {
            CopyTo(ValueOf(slice), destination);
            return true;
        }
        finally
        {
            rocksdb_pinnableslice_destroy(slice);
        }
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint slice = GetPinned(db, key);
        if (slice == 0)
        {
            return null;
        }

        try
        {
            return ValueOf(slice).ToArray();
        }
        finally
        {
            rocksdb_pinnableslice_destroy(slice);
        }
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint slice = GetPinned(db, key);
        if (slice == 0)
        {
            return false;
        }

        rocksdb_pinnableslice_destroy(slice);
        return true;
    }

    protected override unsafe bool DeleteCore(ReadOnlySpan<byte> key)
    {
        // RocksDB writes a tombstone whether or not the key exists, so a lookup answers "was something removed"; the
        // gate keeps two threads deleting one key from both answering yes.
        lock (_deleteGate)
        {
            if (!ContainsKeyCore(key))
            {
                return false;
            }

            using RocksDbHandle.Lease db = _db.Use();
            nint error = 0;
            fixed (byte* keyBytes = key)
            {
                rocksdb_delete(db.Db, db.WriteOptions, keyBytes, (nuint)key.Length, &error);
            }

            ThrowIfFailed(error, "delete");
            return true;
        }
    }

    // Pages hold an iterator only while one page is read, so an enumeration the caller abandons, or one still open
    // when the store is disposed, holds nothing of RocksDB's: the database closes and its LOCK is released.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadPage);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadPage);

    protected override unsafe void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint batch = rocksdb_writebatch_create();
        nint error = 0;
        try
        {
            foreach (KeyValuePair<byte[], byte[]> item in items)
            {
                fixed (byte* keyBytes = item.Key)
                fixed (byte* valueBytes = item.Value)
                {
                    rocksdb_writebatch_put(batch, keyBytes, (nuint)item.Key.Length, valueBytes, (nuint)item.Value.Length);
                }
            }

            rocksdb_write(db.Db, db.WriteOptions, batch, &error);
        }
        finally
        {
            rocksdb_writebatch_destroy(batch);
        }

        ThrowIfFailed(error, "write batch");
    }

    protected override unsafe void FlushCore()
    {
        using RocksDbHandle.Lease db = _db.Use();
        nint error = 0;
        switch (Access)
        {
            // Every Buffered write already went to the WAL file in the OS cache, which is the Buffered tier and what
            // other processes read; syncing the WAL here also takes everything acknowledged so far to the device,
            // so after Flush nothing written is left for a power cut to take.
            case StoreAccess.ReadWrite when !_syncedWrites:
                rocksdb_flush_wal(db.Db, 1, &error);
                break;

            // Synced writes were each synced when acknowledged.
            case StoreAccess.ReadWrite:
                break;

            // A secondary reads the writer's MANIFEST and WAL as far as they reach now: it sees what the writer wrote.
            case StoreAccess.Secondary:
                rocksdb_try_catch_up_with_primary(db.Db, &error);
                break;

            // A read-only instance serves the files as they were at open; it has nothing to flush or follow.
            default:
                break;
        }

        ThrowIfFailed(error, "flush");
    }

    protected override void DisposeCore()
    {
        _db.Dispose();
        DeleteSecondaryDirectory();
    }

    private static unsafe RocksDbHandle Open(string name, string directory, StoreAccess access, string? secondaryPath, bool syncedWrites)
    {
        nint options = rocksdb_options_create();
        nint db;
        nint error = 0;
        try
        {
            rocksdb_options_set_create_if_missing(options, 1);

            // Every open starts a new info LOG and keeps the previous ones (1,000 by default); a benchmark that opens
            // a store many times would otherwise fill its directory with them.
            rocksdb_options_set_keep_log_file_num(options, 2);
            db = access switch
            {
                StoreAccess.ReadWrite => rocksdb_open(options, directory, &error),
                StoreAccess.ReadOnly => rocksdb_open_for_read_only(options, directory, errorIfWalFileExists: 0, &error),

                // RocksDB's wiki asks secondaries for max_open_files = -1 (7.8 no longer enforces it): with every
                // table file held open, one the writer's compaction unlinks stays readable until the next catch-up.
                StoreAccess.Secondary => OpenAsSecondary(options, directory, secondaryPath!, &error),
                _ => throw new ArgumentOutOfRangeException(nameof(access), access, "Unknown access mode."),
            };
        }
        finally
        {
            rocksdb_options_destroy(options);
        }

        if (TakeError(error) is { } message)
        {
            throw IsLockRefusal(message)
                ? new StoreLockedException(name, directory, new KeyValueStoreException(message))
                : new KeyValueStoreException($"{name} at '{directory}' could not be opened for {access}: {message}");
        }

        return new RocksDbHandle(db, syncedWrites);
    }

    private static unsafe nint OpenAsSecondary(nint options, string directory, string secondaryPath, nint* error)
    {
        rocksdb_options_set_max_open_files(options, -1);
        return rocksdb_open_as_secondary(options, directory, secondaryPath, error);
    }

    /// <summary>
    /// RocksDB's words when the LOCK file is held: "While lock file" (fcntl refused: another process holds it) or
    /// "lock hold by current process" (this process already opened the directory read-write).
    /// </summary>
    private static bool IsLockRefusal(string message) =>
        message.Contains("While lock file", StringComparison.Ordinal)
        || message.Contains("lock hold by current process", StringComparison.Ordinal);

    private static unsafe ReadOnlySpan<byte> ValueOf(nint pinnedSlice)
    {
        nuint length;
        byte* value = rocksdb_pinnableslice_value(pinnedSlice, &length);
        return new ReadOnlySpan<byte>(value, checked((int)length));
    }

    /// <summary>The value of <paramref name="key"/> pinned where RocksDB holds it, or 0 when the key is absent.</summary>
    private unsafe nint GetPinned(in RocksDbHandle.Lease db, ReadOnlySpan<byte> key)
    {
        nint error = 0;
        nint slice;
        fixed (byte* keyBytes = key)
        {
            slice = rocksdb_get_pinned(db.Db, db.ReadOptions, keyBytes, (nuint)key.Length, &error);
        }

        ThrowIfFailed(error, "get");
        return slice;
    }

    /// <summary>Reads at most <paramref name="maxEntries"/> entries from <paramref name="lower"/> up to <paramref name="upper"/> into <paramref name="page"/>.</summary>
    /// <returns>Whether entries remain past the page.</returns>
    private unsafe bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        ThrowIfDisposed();
        using RocksDbHandle.Lease db = _db.Use();

        // The read options point at the bound, and the iterator at the read options: both stay put until it is destroyed.
        fixed (byte* upperBytes = upper)
        fixed (byte* lowerBytes = lower)
        {
            nint readOptions = rocksdb_readoptions_create();
            nint iterator = 0;
            try
            {
                if (upper is not null)
                {
                    rocksdb_readoptions_set_iterate_upper_bound(readOptions, upperBytes, (nuint)upper.Length);
                }

                iterator = rocksdb_create_iterator(db.Db, readOptions);
                int pageEntries = Math.Min(ScanPageEntries, maxEntries);
                int pageBytes = 0;
                for (rocksdb_iter_seek(iterator, lowerBytes, (nuint)lower.Length); rocksdb_iter_valid(iterator) != 0; rocksdb_iter_next(iterator))
                {
                    if (page.Count == pageEntries || pageBytes >= ScanPageBytes)
                    {
                        return true;
                    }

                    nuint keyLength, valueLength;
                    byte* keyBytes = rocksdb_iter_key(iterator, &keyLength);
                    byte* valueBytes = rocksdb_iter_value(iterator, &valueLength);
                    byte[] key = new ReadOnlySpan<byte>(keyBytes, checked((int)keyLength)).ToArray();
                    byte[] value = new ReadOnlySpan<byte>(valueBytes, checked((int)valueLength)).ToArray();
                    page.Add(new(key, value));
                    pageBytes += key.Length + value.Length;
                }

                nint error = 0;
                rocksdb_iter_get_error(iterator, &error);
                ThrowIfFailed(error, "scan");
                return false;
            }
            finally
            {
                if (iterator != 0)
                {
                    rocksdb_iter_destroy(iterator);
                }

                rocksdb_readoptions_destroy(readOptions);
            }
        }
    }

    /// <summary>
    /// RocksDB's status text: "Corruption: ..." for a checksum or format failure, "IO error: No space left on device"
    /// (caught by <see cref="StoreFailures.Common"/>) for a full disk.
    /// </summary>
    internal static StoreFailure ClassifyError(Exception error) => error switch
    {
        KeyValueStoreException when error.Message.Contains("Corruption:", StringComparison.Ordinal) => StoreFailure.Damaged,
        KeyValueStoreException or IOException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };

    protected override StoreFailure ClassifyEngineError(Exception error) => ClassifyError(error);

    private void ThrowIfFailed(nint error, string operation)
    {
        if (TakeError(error) is { } message)
        {
            throw new KeyValueStoreException($"{Name} {operation} failed: {message}");
        }
    }

    private void DeleteSecondaryDirectory()
    {
        if (_secondaryPath is null || !Directory.Exists(_secondaryPath))
        {
            return;
        }

        try
        {
            Directory.Delete(_secondaryPath, recursive: true);
        }
        catch (IOException)
        {
            // A secondary still closing on another thread may be writing its info log; a leftover log is harmless.
        }
    }
}
