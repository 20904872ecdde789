using System.Buffers;
using System.Runtime.InteropServices;

using KvBench.Core;

using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// LMDB through Debian's liblmdb0 (<see cref="LmdbNative"/>): one environment per store directory, its unnamed main
/// database, a write transaction per <c>Put</c>/<c>Delete</c>/<c>PutMany</c>, and pooled read-only transactions for reads.
/// </summary>
/// <remarks>
/// <para>
/// The environment is opened with MDB_NOTLS, so a read transaction owns its reader slot instead of its thread's: reset
/// read transactions are pooled and renewed by whichever thread reads next, which keeps reader slots bounded by how
/// many reads run at once rather than by how many threads ever read.
/// </para>
/// <para>
/// The map grows by itself. LMDB may remap only while this process has no transaction open, so every operation holds
/// <see cref="_gate"/> shared for the life of its transaction and a resize holds it exclusively: on MDB_MAP_FULL the
/// write transaction is ended, the map grown, and the write retried; on MDB_MAP_RESIZED (another process grew the map
/// past this one) the committed size is adopted and the operation retried.
/// </para>
/// </remarks>
internal sealed unsafe class LmdbStore : StoreAdapter
{
    /// <summary>LMDB's compiled-in key limit (MDB_MAXKEYSIZE), which mdb_env_get_maxkeysize reports; checked at open.</summary>
    internal const int MaxKeyBytes = 511;

    /// <summary>
    /// The longest value that survives a commit. A value over about two kilobytes is one run of overflow pages, and
    /// LMDB writes a run with a single pwrite, which Linux caps at 0x7FFFF000 bytes; a short write fails the commit
    /// with EIO. So the run (16-byte page header plus the value) must fit in 0x7FFFF000 bytes.
    /// </summary>
    internal const int MaxValueBytes = 0x7FFF_F000 - 16;

    /// <summary>
    /// The map when <see cref="StoreOptions.InitialSizeBytes"/> is not given. Without MDB_WRITEMAP the map is address
    /// space only: the file grows with the data, not with the map. So a map far larger than a small store costs
    /// nothing, and 1 GiB lets the benchmarks' preloaded datasets fit without a resize during a measured phase.
    /// </summary>
    internal const long DefaultInitialMapBytes = 1L << 30;

    internal const string DataFileName = "data.mdb";

    /// <summary>Reader slots in the lock file; LMDB's default of 126 is below what a large thread pool may read with at once.</summary>
    private const uint MaxReaders = 512;

    /// <summary>Reset read transactions kept for reuse; more than run at once on any machine this measures.</summary>
    private const int IdleReaderCapacity = 64;

    /// <summary>rw-r--r-- (0644) for the data.mdb and lock.mdb that mdb_env_open creates.</summary>
    private const uint FileMode = 0b110_100_100;

    private const int ScanPageEntries = 256;

    /// <summary>A scan page also stops at this many bytes, so large values do not pile up in one page.</summary>
    private const int ScanPageBytes = 1 << 20;

    private static readonly HashSet<string> s_openEnvironments = new(StringComparer.Ordinal);
    private static readonly Lock s_openEnvironmentsGate = new();

    // Not disposed: Dispose may run while a late caller waits on it, and such a caller then gets ObjectDisposedException
    // from the check after it enters, not SynchronizationLockException from a disposed lock.
    private readonly ReaderWriterLockSlim _gate = new(LockRecursionPolicy.NoRecursion);
    private readonly nint[] _idleReaders = new nint[IdleReaderCapacity];
    private readonly string _path;
    private readonly bool _flushSyncs;
    private readonly nint _env;
    private readonly uint _dbi;
    private long _mapBytes;
    private int _mapResizes;

    /// <summary>Whether <paramref name="directory"/> holds an LMDB environment: its data file.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, DataFileName));

    public LmdbStore(string name, StoreOptions options)
        : base(name, Declared, options)
    {
        long initialMapBytes = options.InitialSizeBytes ?? DefaultInitialMapBytes;
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialMapBytes, nameof(options.InitialSizeBytes));
        _path = Path.TrimEndingDirectorySeparator(Path.GetFullPath(options.Directory));
        bool readOnly = options.Access != StoreAccess.ReadWrite;
        Directory.CreateDirectory(_path);
        Register(_path);
        try
        {
            // Buffered: MDB_NOSYNC writes every commit's pages and meta page to the file (the OS page cache) and skips the
            // fdatasync, so a killed process loses nothing. MDB_NOMETASYNC would still flush the data pages at every
            // commit, which is the device flush Buffered exists to avoid. Without MDB_WRITEMAP a machine crash can lose
            // the last commits but not corrupt the file. Synced: LMDB's default, data and meta page flushed per commit.
            bool buffered = options.Durability == Durability.Buffered;
            _flushSyncs = buffered && !readOnly;
            uint flags = MDB_NOTLS | (readOnly ? MDB_RDONLY : 0) | (buffered ? MDB_NOSYNC : 0);
            _env = OpenEnvironment(_path, flags, RoundUpToPage(initialMapBytes), out _dbi);
            _mapBytes = CurrentMapBytes();
        }
        catch
        {
            Unregister(_path);
            throw;
        }
    }

    internal static StoreCapabilities Declared { get; } = new()
    {
        MaxKeyBytes = MaxKeyBytes,
        MaxValueBytes = MaxValueBytes,
        GrowsWithoutRestart = true,
        MultiProcess = MultiProcessLevel.Shared,
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };

    /// <summary>The size of this process's map of the environment.</summary>
    internal long MapBytes => Volatile.Read(ref _mapBytes);

    /// <summary>How often this instance remapped: grown on MDB_MAP_FULL or adopted on MDB_MAP_RESIZED.</summary>
    internal int MapResizes => Volatile.Read(ref _mapResizes);

    /// <summary>The environment's flags as LMDB reports them (MDB_NOSYNC, MDB_RDONLY, ...).</summary>
    internal uint EnvironmentFlags
    {
        get
        {
            _gate.EnterReadLock();
            try
            {
                ThrowIfDisposed();
                Check(mdb_env_get_flags(_env, out uint flags), "mdb_env_get_flags");
                return flags;
            }
            finally
            {
                _gate.ExitReadLock();
            }
        }
    }

    /// <summary>LMDB's codes for a damaged file, and the errno of a full disk that a commit's write returns.</summary>
    internal static StoreFailure ClassifyError(Exception error) => error switch
    {
        LmdbException { Code: MDB_INVALID or MDB_VERSION_MISMATCH or MDB_CORRUPTED or MDB_PAGE_NOTFOUND } => StoreFailure.Damaged,
        LmdbException { Code: LmdbException.NoSpaceErrno } => StoreFailure.Full,
        LmdbException or IOException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };

    protected override StoreFailure ClassifyEngineError(Exception error) => ClassifyError(error);

    /// <summary>Says why the row cannot be opened here (liblmdb0 missing), or <see langword="null"/>.</summary>
    internal static string Engine() => $"{LmdbNative.Version} from {NativeLibraryFile.Describe(LmdbNative.LibraryName)} (Debian liblmdb0), bound by KvBench's own P/Invoke";

    internal static string? CheckAvailability()
    {
        if (!NativeLibrary.TryLoad(LibraryName, out nint handle))
        {
            return $"{LibraryName} could not be loaded; install Debian's liblmdb0 (apt-get install liblmdb0).";
        }

        NativeLibrary.Free(handle);
        return null;
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var put = new PutOne(key, value);
        Write(ref put);
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        var put = new PutAll(items);
        Write(ref put);
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        var delete = new DeleteOne(key);
        Write(ref delete);
        return delete.Removed;
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) =>
        Read<CopyToWriter, bool>(key, new CopyToWriter(destination));

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) => Read<CopyToArray, byte[]?>(key, default);

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => Read<Exists, bool>(key, default);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix)
    {
        // No stored key is longer than MaxKeyBytes, so none starts with a longer prefix; MDB_SET_RANGE would refuse it.
        byte[] prefixBytes = prefix.ToArray();
        return prefixBytes.Length > MaxKeyBytes ? [] : Scan(prefixBytes, prefixBytes, int.MaxValue);
    }

    // StoreAdapter has already cut a longer start key to MaxKeyBytes, the longest MDB_SET_RANGE takes.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scan([], startKey.ToArray(), limit);

    /// <summary>Up to <paramref name="limit"/> entries under <paramref name="prefix"/>, from <paramref name="from"/> (the first key when empty).</summary>
    private IEnumerable<KeyValuePair<byte[], byte[]>> Scan(byte[] prefix, byte[] from, int limit)
    {
        // Each page is read in its own read transaction and copied out: no transaction stays open while the caller
        // holds the enumerator, so a slow caller neither pins old pages nor blocks a map resize.
        return Scans.InPages(limit, (after, maxEntries, page) => ReadPage(prefix, from, after, maxEntries, page));
    }

    protected override void FlushCore()
    {
        // Synced commits are already on the device, and a read-only environment has nothing of its own to flush.
        if (!_flushSyncs)
        {
            return;
        }

        _gate.EnterReadLock();
        try
        {
            ThrowIfDisposed();
            Check(mdb_env_sync(_env, 1), "mdb_env_sync");
        }
        finally
        {
            _gate.ExitReadLock();
        }
    }

    protected override void DisposeCore()
    {
        // Waits for operations in flight; later ones see the store disposed once they enter the gate.
        _gate.EnterWriteLock();
        try
        {
            for (int i = 0; i < _idleReaders.Length; i++)
            {
                nint txn = Interlocked.Exchange(ref _idleReaders[i], 0);
                if (txn != 0)
                {
                    mdb_txn_abort(txn);
                }
            }

            mdb_env_close(_env);
        }
        finally
        {
            _gate.ExitWriteLock();
            Unregister(_path);
        }
    }

    private static nint OpenEnvironment(string path, uint flags, long initialMapBytes, out uint dbi)
    {
        Check(mdb_env_create(out nint env), "mdb_env_create");
        try
        {
            Check(mdb_env_set_maxreaders(env, MaxReaders), "mdb_env_set_maxreaders");
            Check(mdb_env_set_mapsize(env, (nuint)initialMapBytes), "mdb_env_set_mapsize");
            Check(mdb_env_open(env, path, flags, FileMode), "mdb_env_open");

            // Readers left in the lock table by killed processes would pin old pages and make the file grow.
            Check(mdb_reader_check(env, out _), "mdb_reader_check");

            int maxKeyBytes = mdb_env_get_maxkeysize(env);
            if (maxKeyBytes < MaxKeyBytes)
            {
                throw new InvalidOperationException($"This {LibraryName} accepts keys of at most {maxKeyBytes} bytes; the LMDB row declares {MaxKeyBytes}.");
            }

            // mdb_env_open took the requested size even when the environment was grown before; size 0 adopts the size
            // recorded in the file, and the larger of the two stands.
            Check(mdb_env_set_mapsize(env, 0), "mdb_env_set_mapsize");
            Check(mdb_env_info(env, out MDB_envinfo info), "mdb_env_info");
            if ((long)info.me_mapsize < initialMapBytes)
            {
                Check(mdb_env_set_mapsize(env, (nuint)initialMapBytes), "mdb_env_set_mapsize");
            }

            Check(mdb_txn_begin(env, 0, flags & MDB_RDONLY, out nint txn), "mdb_txn_begin");
            int rc = mdb_dbi_open(txn, null, 0, out dbi);
            if (rc != MDB_SUCCESS)
            {
                mdb_txn_abort(txn);
                throw new LmdbException("mdb_dbi_open", rc);
            }

            Check(mdb_txn_commit(txn), "mdb_txn_commit");
            return env;
        }
        catch
        {
            mdb_env_close(env);
            throw;
        }
    }

    /// <summary>Runs <paramref name="write"/> in one write transaction, growing or adopting the map and retrying as LMDB asks.</summary>
    private void Write<TWrite>(ref TWrite write)
        where TWrite : IWrite, allows ref struct
    {
        while (true)
        {
            int rc;
            long mapBytes;
            _gate.EnterReadLock();
            try
            {
                ThrowIfDisposed();
                mapBytes = _mapBytes;
                rc = mdb_txn_begin(_env, 0, 0, out nint txn);
                if (rc == MDB_SUCCESS)
                {
                    try
                    {
                        rc = write.Apply(txn, _dbi);
                    }
                    catch
                    {
                        // A write transaction left open would hold LMDB's writer lock for every process.
                        mdb_txn_abort(txn);
                        throw;
                    }

                    if (rc == MDB_SUCCESS)
                    {
                        // A failed commit has already ended the transaction.
                        rc = mdb_txn_commit(txn);
                    }
                    else
                    {
                        mdb_txn_abort(txn);
                    }
                }
            }
            finally
            {
                _gate.ExitReadLock();
            }

            if (rc == MDB_SUCCESS)
            {
                return;
            }

            RecoverOrThrow(WithFullDiskNamed(rc, write.Bytes), mapBytes, write.Bytes, "write");
        }
    }

    /// <summary>Looks <paramref name="key"/> up in a pooled read transaction and hands the mapped value to <paramref name="found"/>.</summary>
    private TResult Read<TFound, TResult>(ReadOnlySpan<byte> key, TFound found)
        where TFound : struct, IFound<TResult>
    {
        var lookup = new Lookup<TFound, TResult>(key, found);
        return InReadTransaction<Lookup<TFound, TResult>, TResult>(ref lookup, "mdb_get");
    }

    /// <summary>
    /// Reads up to one page of at most <paramref name="maxEntries"/> entries under <paramref name="prefix"/>, from
    /// <paramref name="from"/>, or after <paramref name="resumeAfter"/> when given.
    /// </summary>
    /// <returns>Whether entries may remain after the page.</returns>
    private bool ReadPage(byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        var scan = new PageScan(this, prefix, from, resumeAfter, maxEntries, page);
        return InReadTransaction<PageScan, bool>(ref scan, "cursor scan");
    }

    /// <summary>Runs <paramref name="read"/> in a pooled read transaction, adopting a map another process grew and retrying as LMDB asks.</summary>
    private TResult InReadTransaction<TRead, TResult>(ref TRead read, string operation)
        where TRead : IRead<TResult>, allows ref struct
    {
        while (true)
        {
            int rc;
            long mapBytes;
            _gate.EnterReadLock();
            try
            {
                ThrowIfDisposed();
                mapBytes = _mapBytes;
                nint txn = RentReader(out rc);
                if (txn != 0)
                {
                    try
                    {
                        rc = read.Run(txn, _dbi, out TResult result);
                        if (rc == MDB_SUCCESS)
                        {
                            return result;
                        }
                    }
                    finally
                    {
                        ReturnReader(txn);
                    }
                }
            }
            finally
            {
                _gate.ExitReadLock();
            }

            RecoverOrThrow(rc, mapBytes, 0, operation);
        }
    }

    private int ScanPage(nint txn, byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page, out bool more)
    {
        more = false;
        int rc = mdb_cursor_open(txn, _dbi, out nint cursor);
        if (rc != MDB_SUCCESS)
        {
            return rc;
        }

        try
        {
            MDB_val key;
            MDB_val value;
            // Resuming after a key, not from its successor (the key and 0x00): that would be one byte over MaxKeyBytes
            // after a key of the longest length, which MDB_SET_RANGE refuses.
            byte[]? seek = resumeAfter ?? (from.Length > 0 ? from : null);
            if (seek is null)
            {
                rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST);
            }
            else
            {
                fixed (byte* seekBytes = seek)
                {
                    key = new MDB_val(seekBytes, seek.Length);
                    rc = mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE);
                }

                // Resuming after the last key seen: SET_RANGE lands on it again when it still exists.
                if (rc == MDB_SUCCESS && resumeAfter is not null && key.AsSpan().SequenceEqual(resumeAfter))
                {
                    rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
                }
            }

            int pageEntries = Math.Min(ScanPageEntries, maxEntries);
            int pageBytes = 0;
            while (rc == MDB_SUCCESS)
            {
                ReadOnlySpan<byte> keySpan = key.AsSpan();
                if (!keySpan.StartsWith(prefix))
                {
                    return MDB_SUCCESS;
                }

                ReadOnlySpan<byte> valueSpan = value.AsSpan();
                page.Add(new(keySpan.ToArray(), valueSpan.ToArray()));
                pageBytes += keySpan.Length + valueSpan.Length;
                if (page.Count == pageEntries || pageBytes >= ScanPageBytes)
                {
                    more = true;
                    return MDB_SUCCESS;
                }

                rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
            }

            return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
        }
        finally
        {
            mdb_cursor_close(cursor);
        }
    }

    /// <summary>
    /// A renewed read transaction from the pool, or a new one; 0 with the code in <paramref name="rc"/> when LMDB
    /// refused (MDB_MAP_RESIZED among them). The caller holds <see cref="_gate"/> shared.
    /// </summary>
    private nint RentReader(out int rc)
    {
        // Start at a slot picked by thread id, so threads reading at once mostly touch different slots.
        int start = Environment.CurrentManagedThreadId;
        for (int i = 0; i < _idleReaders.Length; i++)
        {
            nint txn = Interlocked.Exchange(ref _idleReaders[(start + i) % _idleReaders.Length], 0);
            if (txn != 0)
            {
                rc = mdb_txn_renew(txn);
                if (rc == MDB_SUCCESS)
                {
                    return txn;
                }

                mdb_txn_abort(txn);
                return 0;
            }
        }

        rc = mdb_txn_begin(_env, 0, MDB_RDONLY, out nint created);
        return rc == MDB_SUCCESS ? created : 0;
    }

    /// <summary>Resets <paramref name="txn"/> (it keeps its reader slot but no snapshot) and pools it, or aborts it when the pool is full.</summary>
    private void ReturnReader(nint txn)
    {
        mdb_txn_reset(txn);
        int start = Environment.CurrentManagedThreadId;
        for (int i = 0; i < _idleReaders.Length; i++)
        {
            if (Interlocked.CompareExchange(ref _idleReaders[(start + i) % _idleReaders.Length], txn, 0) == 0)
            {
                return;
            }
        }

        mdb_txn_abort(txn);
    }

    /// <summary>Grows the map on MDB_MAP_FULL, adopts another process's size on MDB_MAP_RESIZED, and throws on anything else.</summary>
    /// <param name="rc">What LMDB returned.</param>
    /// <param name="mapBytesAtFailure">The map size the failed operation ran with.</param>
    /// <param name="operationBytes">The keys and values the operation writes.</param>
    /// <param name="operation">What failed, for the error message.</param>
    private void RecoverOrThrow(int rc, long mapBytesAtFailure, long operationBytes, string operation)
    {
        if (rc is not (MDB_MAP_FULL or MDB_MAP_RESIZED))
        {
            throw new LmdbException(operation, rc);
        }

        _gate.EnterWriteLock();
        try
        {
            ThrowIfDisposed();

            // Another thread resized since this operation ran: retry with that size first.
            if (_mapBytes != mapBytesAtFailure)
            {
                return;
            }

            // Size 0 adopts what the file records, which another process may have grown.
            Check(mdb_env_set_mapsize(_env, 0), "mdb_env_set_mapsize");
            long target = mapBytesAtFailure;
            if (rc == MDB_MAP_FULL)
            {
                // Doubling keeps the number of resizes logarithmic; an operation larger than the map gets room for its
                // data and the copy-on-write pages it dirties in one step.
                target = RoundUpToPage(Math.Max(mapBytesAtFailure * 2, mapBytesAtFailure + (2 * operationBytes)));
            }

            if (CurrentMapBytes() < target)
            {
                Check(mdb_env_set_mapsize(_env, (nuint)target), "mdb_env_set_mapsize");
            }

            _mapBytes = CurrentMapBytes();
            _mapResizes++;
        }
        finally
        {
            _gate.ExitWriteLock();
        }
    }

    /// <summary>
    /// LMDB writes a commit's pages with pwrite and turns a short write into EIO, which is what a full disk gives when
    /// part of the pages still fit (seen on tmpfs). A failed commit's EIO on a file system without room for the
    /// commit's bytes and a page per 4 KiB of them is named for what it is: ENOSPC.
    /// </summary>
    private int WithFullDiskNamed(int rc, long operationBytes)
    {
        const int IoErrno = 5;
        if (rc != IoErrno)
        {
            return rc;
        }

        long needed = (2 * operationBytes) + (1L << 20);
        return new DriveInfo(_path).AvailableFreeSpace < needed ? LmdbException.NoSpaceErrno : rc;
    }

    private long CurrentMapBytes()
    {
        Check(mdb_env_info(_env, out MDB_envinfo info), "mdb_env_info");
        return (long)info.me_mapsize;
    }

    /// <summary>LMDB wants the map size a multiple of the OS page size.</summary>
    private static long RoundUpToPage(long bytes)
    {
        long page = Environment.SystemPageSize;
        return (bytes + page - 1) / page * page;
    }

    private static void Check(int rc, string operation)
    {
        if (rc != MDB_SUCCESS)
        {
            throw new LmdbException(operation, rc);
        }
    }

    /// <summary>LMDB forbids one environment open twice in a process: closing either handle drops the other's fcntl locks.</summary>
    private static void Register(string path)
    {
        lock (s_openEnvironmentsGate)
        {
            // Not StoreLockedException: no other process holds anything (LMDB lets many processes share the
            // environment); this process misused it, and waiting or retrying would never help.
            if (!s_openEnvironments.Add(path))
            {
                throw new InvalidOperationException(
                    $"The LMDB environment at '{path}' is already open in this process. LMDB forbids opening one environment twice in a process; use the open store, or dispose it first.");
            }
        }
    }

    private static void Unregister(string path)
    {
        lock (s_openEnvironmentsGate)
        {
            s_openEnvironments.Remove(path);
        }
    }

    private static int Put(nint txn, uint dbi, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* keyBytes = key)
        fixed (byte* valueBytes = value)
        {
            var mdbKey = new MDB_val(keyBytes, key.Length);
            var mdbValue = new MDB_val(valueBytes, value.Length);
            return mdb_put(txn, dbi, &mdbKey, &mdbValue, 0);
        }
    }

    /// <summary>Work done inside one write transaction.</summary>
    private interface IWrite
    {
        /// <summary>The key and value bytes written, to size a map that has to grow for them.</summary>
        long Bytes { get; }

        int Apply(nint txn, uint dbi);
    }

    /// <summary>Work done inside one read transaction.</summary>
    private interface IRead<TResult>
    {
        /// <returns><c>MDB_SUCCESS</c> with <paramref name="result"/> set, or the LMDB error to recover from.</returns>
        int Run(nint txn, uint dbi, out TResult result);
    }

    /// <summary>What a point read returns for a mapped value, or for none.</summary>
    private interface IFound<TResult>
    {
        TResult Found(ReadOnlySpan<byte> value);

        TResult Absent();
    }

    private readonly ref struct PutOne(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) : IWrite
    {
        private readonly ReadOnlySpan<byte> _key = key;
        private readonly ReadOnlySpan<byte> _value = value;

        public long Bytes => _key.Length + (long)_value.Length;

        public int Apply(nint txn, uint dbi) => Put(txn, dbi, _key, _value);
    }

    private readonly struct PutAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items) : IWrite
    {
        public long Bytes => items.Sum(static item => item.Key.Length + (long)item.Value.Length);

        public int Apply(nint txn, uint dbi)
        {
            for (int i = 0; i < items.Count; i++)
            {
                int rc = Put(txn, dbi, items[i].Key, items[i].Value);
                if (rc != MDB_SUCCESS)
                {
                    return rc;
                }
            }

            return MDB_SUCCESS;
        }
    }

    private ref struct DeleteOne(ReadOnlySpan<byte> key) : IWrite
    {
        private readonly ReadOnlySpan<byte> _key = key;

        public bool Removed { get; private set; }

        public readonly long Bytes => _key.Length;

        public int Apply(nint txn, uint dbi)
        {
            fixed (byte* keyBytes = _key)
            {
                var mdbKey = new MDB_val(keyBytes, _key.Length);
                int rc = mdb_del(txn, dbi, &mdbKey, null);
                Removed = rc == MDB_SUCCESS;
                return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
            }
        }
    }

    private readonly ref struct Lookup<TFound, TResult>(ReadOnlySpan<byte> key, TFound found) : IRead<TResult>
        where TFound : struct, IFound<TResult>
    {
        private readonly ReadOnlySpan<byte> _key = key;

        public int Run(nint txn, uint dbi, out TResult result)
        {
            MDB_val value;
            int rc;
            fixed (byte* keyBytes = _key)
            {
                var lookup = new MDB_val(keyBytes, _key.Length);
                rc = mdb_get(txn, dbi, &lookup, &value);
            }

            // The value points into the map: it is used before the transaction is reset.
            result = rc switch
            {
                MDB_SUCCESS => found.Found(value.AsSpan()),
                MDB_NOTFOUND => found.Absent(),
                _ => default!,
            };
            return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
        }
    }

    private readonly struct PageScan(LmdbStore store, byte[] prefix, byte[] from, byte[]? resumeAfter, int maxEntries, List<KeyValuePair<byte[], byte[]>> page) : IRead<bool>
    {
        public int Run(nint txn, uint dbi, out bool more)
        {
            int rc = store.ScanPage(txn, prefix, from, resumeAfter, maxEntries, page, out more);
            if (rc != MDB_SUCCESS)
            {
                // A page cut short by an error is read again from the start.
                page.Clear();
            }

            return rc;
        }
    }

    private readonly struct CopyToWriter(IBufferWriter<byte> destination) : IFound<bool>
    {
        public bool Found(ReadOnlySpan<byte> value)
        {
            CopyTo(value, destination);
            return true;
        }

        public bool Absent() => false;
    }

    private readonly struct CopyToArray : IFound<byte[]?>
    {
        public byte[]? Found(ReadOnlySpan<byte> value) => value.ToArray();

        public byte[]? Absent() => null;
    }

    private readonly struct Exists : IFound<bool>
    {
        public bool Found(ReadOnlySpan<byte> value) => true;

        public bool Absent() => false;
    }
}
