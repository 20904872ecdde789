using System.Buffers;

using KvBench.Evaluation.Workload;
using KvBench.Stores.Lmdb;

using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// LMDB through the adapter's own binding (<see cref="LmdbNative"/>), opened as the adapter opens a Buffered store:
/// MDB_NOTLS | MDB_NOSYNC, the main database, the adapter's default map (<see cref="LmdbStore.DefaultInitialMapBytes"/>,
/// so no measured write meets MDB_MAP_FULL), and a write transaction per Put. The subclass says which transaction a
/// read runs in.
/// </summary>
/// <remarks>
/// Single-threaded, as a benchmark drives it: no lock, no map growth, no disposed check, no reader pool, no argument
/// checks. The adapter adds all of those (a reader-writer gate around every transaction so the map can be resized,
/// a lock-free pool of reset read transactions for many threads, MDB_MAP_FULL/MDB_MAP_RESIZED recovery, a
/// one-environment-per-process guard, and StoreAdapter's lifetime gate, error typing and key and value checks), so
/// adapter ÷ raw is what they cost.
/// </remarks>
internal abstract unsafe class LmdbTarget : IPointTarget
{
    private const uint FileMode = (uint)(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead);

    /// <summary>RecordSet.Load's default batch, which the adapter's load uses.</summary>
    private const int LoadBatchRecords = 1000;

    private readonly uint _dbi;

    protected LmdbTarget(string directory)
    {
        Check(mdb_env_create(out nint env), "mdb_env_create");
        Env = env;
        Check(mdb_env_set_mapsize(env, (nuint)LmdbStore.DefaultInitialMapBytes), "mdb_env_set_mapsize");
        Check(mdb_env_open(env, directory, MDB_NOTLS | MDB_NOSYNC, FileMode), "mdb_env_open");
        nint txn = BeginWrite();
        Check(mdb_dbi_open(txn, null, 0, out _dbi), "mdb_dbi_open");
        Check(mdb_txn_commit(txn), "mdb_txn_commit");
    }

    protected nint Env { get; }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        nint txn = BeginWrite();
        Write(txn, key, value);
        Check(mdb_txn_commit(txn), "mdb_txn_commit");
    }

    /// <summary>
    /// In write transactions of <see cref="LoadBatchRecords"/> records, as the adapter's load (RecordSet.Load through
    /// PutMany) commits them: the batch size shapes LMDB's free-page list, which every later commit writes back, so a
    /// load committed per record would leave a different file and make later Puts cheaper than the adapter's.
    /// </summary>
    public void Load(RecordSet records, long count)
    {
        for (long start = 0; start < count; start += LoadBatchRecords)
        {
            nint txn = BeginWrite();
            for (long i = start; i < Math.Min(start + LoadBatchRecords, count); i++)
            {
                Write(txn, records.Key(i), records.Value(i));
            }

            Check(mdb_txn_commit(txn), "mdb_txn_commit");
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        nint txn = BeginRead();
        bool found = Find(txn, key, out MDB_val value);
        if (found)
        {
            // The value points into the map: copied before the transaction ends.
            ReadOnlySpan<byte> bytes = value.AsSpan();
            bytes.CopyTo(destination.GetSpan(bytes.Length));
            destination.Advance(bytes.Length);
        }

        EndRead(txn);
        return found;
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        nint txn = BeginRead();
        byte[]? value = Find(txn, key, out MDB_val found) ? found.AsSpan().ToArray() : null;
        EndRead(txn);
        return value;
    }

    /// <summary>LMDB has no cheaper existence check than a lookup; the adapter does the same.</summary>
    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        nint txn = BeginRead();
        bool found = Find(txn, key, out _);
        EndRead(txn);
        return found;
    }

    /// <summary>Ends the transactions the subclass keeps, then closes the environment.</summary>
    public virtual void Dispose() => mdb_env_close(Env);

    /// <summary>A transaction to look a key up in.</summary>
    protected abstract nint BeginRead();

    /// <summary>Ends what <see cref="BeginRead"/> began.</summary>
    protected abstract void EndRead(nint txn);

    protected static void Check(int rc, string operation)
    {
        if (rc != MDB_SUCCESS)
        {
            throw new LmdbException(operation, rc);
        }
    }

    protected nint BeginWrite()
    {
        Check(mdb_txn_begin(Env, 0, 0, out nint txn), "mdb_txn_begin");
        return txn;
    }

    private void Write(nint txn, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        int rc;
        fixed (byte* keyBytes = key)
        fixed (byte* valueBytes = value)
        {
            var mdbKey = new MDB_val(keyBytes, key.Length);
            var mdbValue = new MDB_val(valueBytes, value.Length);
            rc = mdb_put(txn, _dbi, &mdbKey, &mdbValue, 0);
        }

        if (rc != MDB_SUCCESS)
        {
            mdb_txn_abort(txn);
            throw new LmdbException("mdb_put", rc);
        }
    }

    private bool Find(nint txn, ReadOnlySpan<byte> key, out MDB_val value)
    {
        int rc;
        MDB_val found;
        fixed (byte* keyBytes = key)
        {
            var lookup = new MDB_val(keyBytes, key.Length);
            rc = mdb_get(txn, _dbi, &lookup, &found);
        }

        value = found;
        if (rc is not (MDB_SUCCESS or MDB_NOTFOUND))
        {
            EndRead(txn);
            throw new LmdbException("mdb_get", rc);
        }

        return rc == MDB_SUCCESS;
    }
}
