using static KvBench.Stores.Lmdb.LmdbException;
using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// One open LMDB environment and its unnamed main database: the transactions run in it, the map that grows by itself,
/// and the rule that a process opens an environment once.
/// </summary>
/// <remarks>
/// <para>
/// LMDB may remap only while this process has no transaction open, so every transaction runs with <see cref="_gate"/>
/// held shared and a resize holds it exclusively: on MDB_MAP_FULL the write transaction is ended, the map grown, and the
/// write retried; on MDB_MAP_RESIZED (another process grew the map past this one) the committed size is adopted and the
/// operation retried.
/// </para>
/// <para>
/// LMDB forbids opening one environment twice in a process (closing either handle drops the other's fcntl locks), so
/// each open registers its directory and a second open of it throws until the first is disposed.
/// </para>
/// </remarks>
internal sealed class LmdbEnvironment : IDisposable
{
    /// <summary>Reader slots in the lock file; LMDB's default of 126 is below what a large thread pool may read with at once.</summary>
    private const uint MaxReaders = 512;

    /// <summary>rw-r--r-- (0644) for the data.mdb and lock.mdb that mdb_env_open creates.</summary>
    private const uint FileMode = 0b110_100_100;

    private static readonly HashSet<string> s_openEnvironments = new(StringComparer.Ordinal);
    private static readonly Lock s_openEnvironmentsGate = new();

    // Not disposed: Dispose may run while a late caller waits on it, and such a caller then gets ObjectDisposedException
    // from the check after it enters, not SynchronizationLockException from a disposed lock.
    private readonly ReaderWriterLockSlim _gate = new(LockRecursionPolicy.NoRecursion);
    private readonly string _path;
    private readonly nint _env;
    private readonly uint _dbi;
    private readonly LmdbReaderPool _readers;
    private long _mapBytes;
    private int _mapResizes;
    private bool _closed;

    /// <summary>Opens (creating when <paramref name="flags"/> allow) the environment in <paramref name="directory"/>.</summary>
    /// <param name="directory">The environment's directory; created when missing.</param>
    /// <param name="flags">mdb_env_open's flags; MDB_NOTLS is what lets <see cref="LmdbReaderPool"/> share transactions across threads.</param>
    /// <param name="initialMapBytes">The map to start with, unless the file records a larger one; rounded up to a page.</param>
    /// <exception cref="InvalidOperationException">This process has the environment open already.</exception>
    public LmdbEnvironment(string directory, uint flags, long initialMapBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialMapBytes);
        _path = Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory));
        Directory.CreateDirectory(_path);
        Register(_path);
        try
        {
            _env = Open(_path, flags, RoundUpToPage(initialMapBytes), out _dbi);
            _mapBytes = CurrentMapBytes();
            _readers = new LmdbReaderPool(_env);
        }
        catch
        {
            Unregister(_path);
            throw;
        }
    }

    /// <summary>The size of this process's map of the environment.</summary>
    public long MapBytes => Volatile.Read(ref _mapBytes);

    /// <summary>How often this instance remapped: grown on MDB_MAP_FULL or adopted on MDB_MAP_RESIZED.</summary>
    public int MapResizes => Volatile.Read(ref _mapResizes);

    /// <summary>The longest key this LMDB binary stores (mdb_env_get_maxkeysize: MDB_MAXKEYSIZE, fixed when it was built).</summary>
    public int MaxKeyBytes => mdb_env_get_maxkeysize(_env);

    /// <summary>The environment's flags as LMDB reports them (MDB_NOSYNC, MDB_RDONLY, ...).</summary>
    public uint Flags
    {
        get
        {
            _gate.EnterReadLock();
            try
            {
                ThrowIfClosed();
                Check(mdb_env_get_flags(_env, out uint flags), "mdb_env_get_flags");
                return flags;
            }
            finally
            {
                _gate.ExitReadLock();
            }
        }
    }

    /// <summary>Runs <paramref name="write"/> in one write transaction, growing or adopting the map and retrying as LMDB asks.</summary>
    public void Write<TWrite>(ref TWrite write)
        where TWrite : ILmdbWrite, allows ref struct
    {
        while (true)
        {
            int rc;
            long mapBytes = EnterTransaction();
            try
            {
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

    /// <summary>Runs <paramref name="read"/> in a pooled read transaction, adopting a map another process grew and retrying as LMDB asks.</summary>
    /// <param name="read">The work; run again from the start after a retry.</param>
    /// <param name="operation">What is read, for the error message.</param>
    public TResult Read<TRead, TResult>(ref TRead read, string operation)
        where TRead : ILmdbRead<TResult>, allows ref struct
    {
        while (true)
        {
            int rc;
            long mapBytes = EnterTransaction();
            try
            {
                nint txn = _readers.Rent(out rc);
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
                        _readers.Return(txn);
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

    /// <summary>Flushes commits made with MDB_NOSYNC to the device.</summary>
    public void Sync()
    {
        _gate.EnterReadLock();
        try
        {
            ThrowIfClosed();
            Check(mdb_env_sync(_env, 1), "mdb_env_sync");
        }
        finally
        {
            _gate.ExitReadLock();
        }
    }

    /// <summary>Waits for the transactions in flight, ends the pooled ones, closes the environment, and lets it be opened again.</summary>
    public void Dispose()
    {
        _gate.EnterWriteLock();
        try
        {
            if (_closed)
            {
                return;
            }

            _closed = true;
            _readers.Dispose();
            mdb_env_close(_env);
        }
        finally
        {
            _gate.ExitWriteLock();
        }

        Unregister(_path);
    }

    private static nint Open(string path, uint flags, long initialMapBytes, out uint dbi)
    {
        Check(mdb_env_create(out nint env), "mdb_env_create");
        try
        {
            Check(mdb_env_set_maxreaders(env, MaxReaders), "mdb_env_set_maxreaders");
            Check(mdb_env_set_mapsize(env, (nuint)initialMapBytes), "mdb_env_set_mapsize");
            Check(mdb_env_open(env, path, flags, FileMode), "mdb_env_open");

            // Readers left in the lock table by killed processes would pin old pages and make the file grow.
            Check(mdb_reader_check(env, out _), "mdb_reader_check");

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
            ThrowIfClosed();

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
        return new DriveInfo(_path).AvailableFreeSpace < needed ? NoSpaceErrno : rc;
    }

    /// <summary>
    /// Holds the gate shared for a transaction's life, so no resize remaps under it; returns the map size the
    /// transaction runs with, which a resize compares to tell a stale failure from a new one.
    /// </summary>
    private long EnterTransaction()
    {
        _gate.EnterReadLock();
        if (_closed)
        {
            _gate.ExitReadLock();
            ThrowIfClosed();
        }

        return _mapBytes;
    }

    private void ThrowIfClosed() => ObjectDisposedException.ThrowIf(_closed, this);

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
}
