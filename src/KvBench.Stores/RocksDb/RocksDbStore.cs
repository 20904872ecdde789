using System.Buffers;

using KvBench.Core;

using RocksDbSharp;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// RocksDB through the <c>RocksDB</c> NuGet package (namespace RocksDbSharp), with the RocksDB it bundles; default
/// column family, default bytewise comparator (the order of <see cref="ByteKeys.Comparer"/>). Writes go through the
/// WAL: Buffered leaves <c>WriteOptions.sync</c> off, so a write is in the OS cache when acknowledged; Synced turns it
/// on, so each write waits for the device. Other processes open read-only (the files as they were at open) or as a
/// secondary that catches up on Flush.
/// </summary>
/// <remarks>
/// RocksDB is safe to call from many threads at once, so calls take no lock here. It must not be closed while a call
/// is inside it or while an iterator or pinned value it handed out lives: <see cref="StoreAdapter"/>'s lifetime gate
/// runs no call during or after <see cref="DisposeCore"/>, and every iterator and pinned value here ends inside the
/// call that made it, so the database is closed without a count of its own.
/// Point reads go to the package's binding of <c>rocksdb_get_pinned</c> (<see cref="Native.Instance"/>), which lends
/// the value where RocksDB holds it: TryGet copies it once, into the caller's buffer, and allocates nothing managed;
/// ContainsKey copies nothing. The package's <c>RocksDb.Get(byte[] key, byte[] buffer, offset, length)</c> also
/// allocates nothing managed, but it takes the key as an array (a copy of the caller's span) and goes through
/// <c>rocksdb_get</c>, which copies the value into a malloc'ed block before it is copied again. So Put, TryGet,
/// ContainsKey and a Buffered Flush allocate nothing managed, Get only the array it returns, and PutMany the package's
/// WriteBatch object, which owns the native batch (PutMany has no allocation goal).
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
    private readonly RocksDbSharp.RocksDb _db;
    private readonly ReadOptions _readOptions = new();
    private readonly WriteOptions _writeOptions;
    private readonly bool _syncedWrites;
    private readonly string? _secondaryPath;

    /// <summary>Whether <paramref name="directory"/> holds a RocksDB database: the CURRENT file that names its manifest.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, "CURRENT"));

    public RocksDbStore(StoreRow row, StoreOptions options)
        : base(row, options)
    {
        string directory = Path.GetFullPath(options.Directory);
        _syncedWrites = options.Durability == Durability.Synced;
        _writeOptions = new WriteOptions().SetSync(_syncedWrites);
        if (options.Access == StoreAccess.ReadWrite)
        {
            // No free-space reserve (KeepFreeSpace), unlike while this row was Debian's RocksDB 7.8.3, which aborted
            // the process on a full disk (an assertion in its WAL writer). RocksDB 11.12.0 fails the write cleanly: a
            // load onto a small tmpfs (`kvbench load --store RocksDB --value-bytes 4096 --batch 1`) exits 9 (StoreFull)
            // with "IO error: No space left on device: While appending to file: .../000004.log", at either tier and
            // also where a memtable flush is what finds no room, and every record stored before it reads back byte for
            // byte (`kvbench verify`), with new writes succeeding once there is room. Within the open that met the
            // full disk, though, every later write gets the same error, even seconds after space is freed, and syncing
            // the WAL gets "Writer has previous error": writes resume after a reopen, as StoreFullException says.
            // DiskFullTests checks every acknowledged record in that open and after the reopen.
            Directory.CreateDirectory(directory);
        }
        else if (options.Access == StoreAccess.Secondary)
        {
            // A secondary keeps its own info log; a directory of its own per instance lets several follow one writer.
            _secondaryPath = Path.Combine(directory, $"secondary-{Environment.ProcessId}-{Guid.NewGuid():N}");
        }

        try
        {
            _db = Open(row.Name, directory, options.Access, _secondaryPath);
        }
        catch
        {
            DeleteSecondaryDirectory();
            throw;
        }
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        _db.Put(key, value, cf: null, _writeOptions);

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        nint slice = GetPinned(key);
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
            Native.Instance.rocksdb_pinnableslice_destroy(slice);
        }
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        nint slice = GetPinned(key);
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
            Native.Instance.rocksdb_pinnableslice_destroy(slice);
        }
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        // A full lookup: RocksDB has no exact existence check cheaper than a pinned get (KeyMayExist may say yes wrongly).
        nint slice = GetPinned(key);
        if (slice == 0)
        {
            return false;
        }

        Native.Instance.rocksdb_pinnableslice_destroy(slice);
        return true;
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        // RocksDB writes a tombstone whether or not the key exists, so a lookup answers "was something removed"; the
        // gate keeps two threads deleting one key from both answering yes.
        lock (_deleteGate)
        {
            if (!ContainsKeyCore(key))
            {
                return false;
            }

            _db.Remove(key, cf: null, _writeOptions);
            return true;
        }
    }

    // Pages hold an iterator only while one page is read, so an enumeration the caller abandons, or one still open
    // when the store is disposed, holds nothing of RocksDB's: the database closes and its LOCK is released.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadPage);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadPage);

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using var batch = new WriteBatch();
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            batch.Put(item.Key, item.Value);
        }

        _db.Write(batch, _writeOptions);
    }

    protected override void FlushCore()
    {
        switch (Access)
        {
            // Every Buffered write already went to the WAL file in the OS cache, which is the Buffered tier and what
            // other processes read; syncing the WAL here also takes everything acknowledged so far to the device,
            // so after Flush nothing written is left for a power cut to take. The package has no managed FlushWal.
            case StoreAccess.ReadWrite when !_syncedWrites:
                Native.Instance.rocksdb_flush_wal(_db.Handle, sync: 1);
                break;

            // Synced writes were each synced when acknowledged.
            case StoreAccess.ReadWrite:
                break;

            // A secondary reads the writer's MANIFEST and WAL as far as they reach now: it sees what the writer wrote.
            case StoreAccess.Secondary:
                _db.TryCatchUpWithPrimary();
                break;

            // A read-only instance serves the files as they were at open; it has nothing to flush or follow.
            default:
                break;
        }
    }

    protected override void DisposeCore()
    {
        _db.Dispose();
        DeleteSecondaryDirectory();
    }

    private static RocksDbSharp.RocksDb Open(string name, string directory, StoreAccess access, string? secondaryPath)
    {
        DbOptions options = new DbOptions()
            .SetCreateIfMissing(true)

            // Every open starts a new info LOG and keeps the previous ones (1,000 by default); a benchmark that opens
            // a store many times would otherwise fill its directory with them.
            .SetKeepLogFileNum(2);
        try
        {
            return access switch
            {
                StoreAccess.ReadWrite => RocksDbSharp.RocksDb.Open(options, directory),
                StoreAccess.ReadOnly => RocksDbSharp.RocksDb.OpenReadOnly(options, directory, errorIfLogFileExists: false),

                // RocksDB's wiki asks secondaries for max_open_files = -1: with every table file held open, one the
                // writer's compaction unlinks stays readable until the next catch-up.
                StoreAccess.Secondary => RocksDbSharp.RocksDb.OpenAsSecondary(options.SetMaxOpenFiles(-1), directory, secondaryPath!),
                _ => throw new ArgumentOutOfRangeException(nameof(access), access, "Unknown access mode."),
            };
        }
        catch (RocksDbException error)
        {
            throw IsLockRefusal(error.Message)
                ? new StoreLockedException(name, directory, error)
                : new KeyValueStoreException($"{name} at '{directory}' could not be opened for {access}: {error.Message}", error);
        }
        finally
        {
            // The package reads options.Handle and lets go of the object: without this, its finalizer could destroy
            // the native options while RocksDB still reads them inside the open.
            GC.KeepAlive(options);
        }
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
        nint value = Native.Instance.rocksdb_pinnableslice_value(pinnedSlice, out nuint length);
        return new ReadOnlySpan<byte>((void*)value, checked((int)length));
    }

    /// <summary>The value of <paramref name="key"/> pinned where RocksDB holds it, or 0 when the key is absent.</summary>
    /// <exception cref="RocksDbException">RocksDB failed the read.</exception>
    private unsafe nint GetPinned(ReadOnlySpan<byte> key)
    {
        fixed (byte* keyBytes = key)
        {
            return Native.Instance.rocksdb_get_pinned(_db.Handle, _readOptions.Handle, keyBytes, (nuint)key.Length);
        }
    }

    /// <summary>
    /// Reads at most <paramref name="maxEntries"/> entries from <paramref name="lower"/> up to <paramref name="upper"/>
    /// into <paramref name="page"/>.
    /// </summary>
    /// <returns>Whether entries remain past the page.</returns>
    private bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        // The package copies the bound into memory the read options own, and the iterator keeps the read options
        // alive; the package frees both when the read options are finalized.
        var readOptions = new ReadOptions();
        if (upper is not null)
        {
            readOptions.SetIterateUpperBound(upper);
        }

        using Iterator iterator = _db.NewIterator(cf: null, readOptions);
        int pageEntries = Math.Min(ScanPageEntries, maxEntries);
        int pageBytes = 0;
        for (iterator.Seek(lower); iterator.Valid(); iterator.Next())
        {
            if (page.Count == pageEntries || pageBytes >= ScanPageBytes)
            {
                return true;
            }

            byte[] key = iterator.Key();
            byte[] value = iterator.Value();
            page.Add(new(key, value));
            pageBytes += key.Length + value.Length;
        }

        // An iterator stops at the end and at an error alike; only its status tells them apart.
        Native.Instance.rocksdb_iter_get_error(iterator.Handle);
        return false;
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
