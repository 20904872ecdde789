using LightningDB;

using static KvBench.Stores.Lmdb.LmdbException;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// One open LightningDB environment and its unnamed main database: the transactions run in it, the map that grows by
/// itself, and the rule that a process opens an environment once.
/// </summary>
/// <remarks>
/// <para>
/// LMDB may remap only while this process has no transaction open, so every transaction runs inside
/// <see cref="_transactions"/> and a resize runs in its exclusive section: on MDB_MAP_FULL the write transaction is ended, the map grown, and the
/// write retried; on MDB_MAP_RESIZED (another process grew the map past this one) the committed size is adopted and the
/// operation retried. That is all the gate is for: whether the store is open is <see cref="StoreAdapter"/>'s to say, and
/// it calls nothing here during or after <see cref="Dispose"/>. The gate is the adapter's kind (<see cref="LifetimeGate"/>),
/// not a reader-writer lock: a transaction enters it with plain stores where a lock's shared side took two locked
/// instructions on one counter every thread writes, and the resize, rare, pays for both with a process-wide barrier.
/// </para>
/// <para>
/// LMDB forbids opening one environment twice in a process (closing either handle drops the other's fcntl locks), so
/// each open registers its directory and a second open of it throws until the first is disposed.
/// </para>
/// <para>
/// Every LightningDB object made here is disposed before the environment: LightningDB's finalizers throw for an
/// environment left undisposed and for a transaction that outlives its environment, which would end the process.
/// </para>
/// </remarks>
internal sealed class LmdbEnvironment : IDisposable
{
    /// <summary>Reader slots in the lock file; LMDB's default of 126 is below what a large thread pool may read with at once.</summary>
    private const int MaxReaders = 512;

    /// <summary>rw-r--r-- (0644) for the data.mdb and lock.mdb that mdb_env_open creates.</summary>
    private const UnixAccessMode FileMode = UnixAccessMode.OwnerRead | UnixAccessMode.OwnerWrite | UnixAccessMode.GroupRead | UnixAccessMode.OtherRead;

    private static readonly HashSet<string> s_openEnvironments = new(StringComparer.Ordinal);
    private static readonly Lock s_openEnvironmentsGate = new();

    private readonly LifetimeGate _transactions = new();
    private readonly string _path;
    private readonly LightningEnvironment _env;
    private readonly LightningDatabase _db;
    private readonly LmdbReaderPool _readers;
    private long _mapBytes;
    private int _mapResizes;

    // Only so that a second Dispose does nothing (IDisposable's rule); no call checks it.
    private bool _disposed;

    /// <summary>Opens (creating when <paramref name="flags"/> allow) the environment in <paramref name="directory"/>.</summary>
    /// <param name="directory">The environment's directory; created when missing.</param>
    /// <param name="flags">mdb_env_open's flags; MDB_NOTLS is what lets <see cref="LmdbReaderPool"/> share transactions across threads.</param>
    /// <param name="initialMapBytes">The map to start with, unless the file records a larger one; rounded up to a page.</param>
    /// <exception cref="InvalidOperationException">This process has the environment open already.</exception>
    /// <exception cref="DllNotFoundException">No LMDB library loads here.</exception>
    public LmdbEnvironment(string directory, EnvironmentOpenFlags flags, long initialMapBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(initialMapBytes);
        LmdbNativeLibrary.EnsureLoaded();
        _path = Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory));
        Directory.CreateDirectory(_path);
        Register(_path);
        try
        {
            (_env, _db) = Open(_path, flags, RoundUpToPage(initialMapBytes));
            _mapBytes = _env.Info.MapSize;
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
    public int MaxKeyBytes => _env.MaxKeySize;

    /// <summary>The environment's flags as LMDB reports them (NoSync, ReadOnly, ...).</summary>
    public EnvironmentOpenFlags Flags => _env.Flags;

    /// <summary>Runs <paramref name="write"/> in one write transaction, growing or adopting the map and retrying as LMDB asks.</summary>
    public void Write<TWrite>(ref TWrite write)
        where TWrite : ILmdbWrite, allows ref struct
    {
        while (true)
        {
            MDBResultCode rc;
            LifetimeGate.Call call = EnterTransaction(out long mapBytes);
            try
            {
                rc = Begin(out LightningTransaction? txn);
                if (txn is not null)
                {
                    // Disposing a transaction that neither committed nor aborted aborts it: one left open would hold
                    // LMDB's writer lock for every process.
                    using (txn)
                    {
                        rc = write.Apply(txn, _db);

                        // A failed commit has already ended the transaction.
                        rc = rc == MDBResultCode.Success ? txn.Commit() : rc;
                    }
                }
            }
            finally
            {
                LifetimeGate.Exit(call);
            }

            if (rc == MDBResultCode.Success)
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
            MDBResultCode rc;
            LifetimeGate.Call call = EnterTransaction(out long mapBytes);
            try
            {
                LightningTransaction? txn = _readers.Rent(out rc);
                if (txn is not null)
                {
                    try
                    {
                        rc = read.Run(txn, _db, out TResult result);
                        if (rc == MDBResultCode.Success)
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
                LifetimeGate.Exit(call);
            }

            RecoverOrThrow(rc, mapBytes, 0, operation);
        }
    }

    /// <summary>Flushes commits made with MDB_NOSYNC to the device.</summary>
    public void Sync() => Check(_env.Flush(force: true), "mdb_env_sync");

    /// <summary>Ends the pooled transactions, closes the environment, and lets it be opened again.</summary>
    /// <remarks>The caller has let every call in flight finish (<see cref="StoreAdapter"/>'s gate) and makes no more.</remarks>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _readers.Dispose();
        _db.Dispose();
        _env.Dispose();
        Unregister(_path);
    }

    private static (LightningEnvironment Env, LightningDatabase Db) Open(string path, EnvironmentOpenFlags flags, long initialMapBytes)
    {
        LightningEnvironment env;
        try
        {
            env = new LightningEnvironment(path, new EnvironmentConfiguration { MapSize = initialMapBytes, MaxReaders = MaxReaders });
        }
        catch (LightningException error)
        {
            throw From(error, "mdb_env_create");
        }

        try
        {
            try
            {
                env.Open(flags, FileMode);

                // Readers left in the lock table by killed processes would pin old pages and make the file grow.
                env.CheckStaleReaders();
            }
            catch (LightningException error)
            {
                throw From(error, "mdb_env_open");
            }

            // mdb_env_open took the requested size even when the environment was grown before; the size recorded in
            // the file is adopted, and the larger of the two stands.
            Remap(env, initialMapBytes);
            return (env, OpenMainDatabase(env, flags));
        }
        catch
        {
            env.Dispose();
            throw;
        }
    }

    private static LightningDatabase OpenMainDatabase(LightningEnvironment env, EnvironmentOpenFlags flags)
    {
        TransactionBeginFlags beginFlags = flags.HasFlag(EnvironmentOpenFlags.ReadOnly) ? TransactionBeginFlags.ReadOnly : TransactionBeginFlags.None;
        try
        {
            using LightningTransaction txn = BeginAdoptingGrowth(env, beginFlags);

            // The unnamed database always exists; its handle stays valid for the environment's life after the commit.
            LightningDatabase db = txn.OpenDatabase();
            MDBResultCode rc = txn.Commit();
            if (rc != MDBResultCode.Success)
            {
                db.Dispose();
                throw new LmdbException("mdb_txn_commit", rc);
            }

            return db;
        }
        catch (LightningException error)
        {
            throw From(error, "mdb_dbi_open");
        }
    }

    /// <summary>
    /// The open's first transaction. Another process may grow the map between the open's remap and this begin, which LMDB
    /// refuses with MDB_MAP_RESIZED until the size it recorded is adopted; a writer growing the map without pause can do
    /// so more than once, so the open adopts and tries again, a bounded number of times.
    /// </summary>
    private static LightningTransaction BeginAdoptingGrowth(LightningEnvironment env, TransactionBeginFlags flags)
    {
        const int Attempts = 100;
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return env.BeginTransaction(flags);
            }
            catch (LightningException error) when (CodeOf(error) == MDBResultCode.MapResized && attempt < Attempts)
            {
                Remap(env, 0);
            }
        }
    }

    /// <summary>
    /// Adopts the map size the file records (mdb_env_set_mapsize with 0: another process may have grown it), then sets
    /// <paramref name="atLeastBytes"/> when that is larger. Only while this process has no transaction open.
    /// </summary>
    /// <remarks>
    /// LightningDB's <see cref="LightningEnvironment.MapSize"/> remembers the last size it was given and skips the
    /// native call when given the same again, so every remap ends by giving it the map's real size: left at 0, it
    /// would make the next adoption a silent no-op.
    /// </remarks>
    private static void Remap(LightningEnvironment env, long atLeastBytes)
    {
        try
        {
            env.MapSize = 0;
            env.MapSize = Math.Max(env.Info.MapSize, atLeastBytes);
        }
        catch (LightningException error)
        {
            throw From(error, "mdb_env_set_mapsize");
        }
    }

    /// <summary>A new write transaction, or <see langword="null"/> with LMDB's refusal (MDB_MAP_RESIZED among them).</summary>
    private MDBResultCode Begin(out LightningTransaction? txn)
    {
        try
        {
            txn = _env.BeginTransaction();
            return MDBResultCode.Success;
        }
        catch (LightningException error)
        {
            txn = null;
            return CodeOf(error);
        }
    }

    /// <summary>Grows the map on MDB_MAP_FULL, adopts another process's size on MDB_MAP_RESIZED, and throws on anything else.</summary>
    /// <param name="rc">What LMDB returned.</param>
    /// <param name="mapBytesAtFailure">The map size the failed operation ran with.</param>
    /// <param name="operationBytes">The keys and values the operation writes.</param>
    /// <param name="operation">What failed, for the error message.</param>
    private void RecoverOrThrow(MDBResultCode rc, long mapBytesAtFailure, long operationBytes, string operation)
    {
        if (rc is not (MDBResultCode.MapFull or MDBResultCode.MapResized))
        {
            throw new LmdbException(operation, rc);
        }

        _transactions.EnterExclusive(this);
        try
        {
            // Another thread resized since this operation ran: retry with that size first.
            if (_mapBytes != mapBytesAtFailure)
            {
                return;
            }

            // Doubling keeps the number of resizes logarithmic; an operation larger than the map gets room for its data
            // and the copy-on-write pages it dirties in one step. MDB_MAP_RESIZED asks only for the recorded size.
            long target = rc == MDBResultCode.MapFull
                ? RoundUpToPage(Math.Max(mapBytesAtFailure * 2, mapBytesAtFailure + (2 * operationBytes)))
                : mapBytesAtFailure;
            Remap(_env, target);
            _mapBytes = _env.Info.MapSize;
            _mapResizes++;
        }
        finally
        {
            _transactions.ExitExclusive();
        }
    }

    /// <summary>
    /// LMDB writes a commit's pages with pwrite and turns a short write into EIO, which is what a full disk gives when
    /// part of the pages still fit (as on tmpfs). A failed commit's EIO on a file system without room for the
    /// commit's bytes and a page per 4 KiB of them is named for what it is: ENOSPC.
    /// </summary>
    private MDBResultCode WithFullDiskNamed(MDBResultCode rc, long operationBytes)
    {
        if (rc != IoErrno)
        {
            return rc;
        }

        long needed = (2 * operationBytes) + (1L << 20);
        return new DriveInfo(_path).AvailableFreeSpace < needed ? NoSpaceErrno : rc;
    }

    /// <summary>
    /// Enters the gate for a transaction's life, so no resize remaps under it; gives the map size the transaction runs
    /// with, which a resize compares to tell a stale failure from a new one.
    /// </summary>
    private LifetimeGate.Call EnterTransaction(out long mapBytes)
    {
        LifetimeGate.Call call = _transactions.Enter(this);
        mapBytes = _mapBytes;
        return call;
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
                    $"The LMDB environment at '{path}' is already open in this process. LMDB forbids opening one " +
                        $"environment twice in a process; use the open store, or dispose it first.");
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
