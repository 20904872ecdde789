using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// Reset read transactions kept for reuse, lock-free: a read rents one, renews it, and returns it reset.
/// </summary>
/// <remarks>
/// The environment is opened with MDB_NOTLS, so a read transaction owns its reader slot instead of its thread's: a reset
/// transaction can be renewed by whichever thread reads next, which keeps reader slots bounded by how many reads run at
/// once rather than by how many threads ever read. The pool is not synchronised with map resizes: its owner
/// (<see cref="LmdbEnvironment"/>) calls it only while holding its gate shared, and <see cref="Dispose"/> exclusively.
/// </remarks>
internal sealed class LmdbReaderPool(nint env) : IDisposable
{
    /// <summary>Reset read transactions kept for reuse; more than run at once on any machine this measures.</summary>
    private const int IdleReaderCapacity = 64;

    private readonly nint[] _idleReaders = new nint[IdleReaderCapacity];

    /// <summary>
    /// A renewed read transaction from the pool, or a new one; 0 with the code in <paramref name="rc"/> when LMDB
    /// refused (MDB_MAP_RESIZED among them).
    /// </summary>
    public nint Rent(out int rc)
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

        rc = mdb_txn_begin(env, 0, MDB_RDONLY, out nint created);
        return rc == MDB_SUCCESS ? created : 0;
    }

    /// <summary>Resets <paramref name="txn"/> (it keeps its reader slot but no snapshot) and pools it, or aborts it when the pool is full.</summary>
    public void Return(nint txn)
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

    /// <summary>Aborts the pooled transactions, which the environment must see ended before it closes.</summary>
    public void Dispose()
    {
        for (int i = 0; i < _idleReaders.Length; i++)
        {
            nint txn = Interlocked.Exchange(ref _idleReaders[i], 0);
            if (txn != 0)
            {
                mdb_txn_abort(txn);
            }
        }
    }
}
