using LightningDB;

using static KvBench.Stores.Lmdb.LmdbException;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// Reset read transactions kept for reuse, lock-free: a read rents one, renews it, and returns it reset.
/// </summary>
/// <remarks>
/// <para>
/// The environment is opened with MDB_NOTLS (<see cref="EnvironmentOpenFlags.NoThreadLocalStorage"/>), so a read
/// transaction owns its reader slot instead of its thread's: a reset transaction can be renewed by whichever thread
/// reads next, which keeps reader slots bounded by how many reads run at once rather than by how many threads ever read.
/// The pool is not synchronised with map resizes: its owner (<see cref="LmdbEnvironment"/>) calls it only while holding
/// its resize gate shared, and <see cref="Dispose"/> after every call has ended.
/// </para>
/// <para>
/// LightningDB aborts (and so frees) a transaction on <c>Dispose</c> only when it is active: disposing a reset one
/// drops the managed object and leaves LMDB's transaction allocated until the process ends. So a transaction is disposed
/// active: one that no longer fits the pool is disposed before it is reset, and <see cref="Dispose"/> renews each pooled
/// one first.
/// </para>
/// </remarks>
internal sealed class LmdbReaderPool(LightningEnvironment env) : IDisposable
{
    /// <summary>Reset read transactions kept for reuse; more than run at once on any machine this measures.</summary>
    private const int IdleReaderCapacity = 64;

    private readonly LightningTransaction?[] _idleReaders = new LightningTransaction?[IdleReaderCapacity];

    // Read transactions taken from or given back to the pool, so Return knows without a lock whether one fits.
    private int _idleCount;

    /// <summary>
    /// A renewed read transaction from the pool, or a new one; <see langword="null"/> with the code in
    /// <paramref name="rc"/> when LMDB refused (MDB_MAP_RESIZED among them).
    /// </summary>
    public LightningTransaction? Rent(out MDBResultCode rc)
    {
        // Start at a slot picked by thread id, so threads reading at once mostly touch different slots.
        int start = Environment.CurrentManagedThreadId;
        for (int i = 0; i < _idleReaders.Length; i++)
        {
            LightningTransaction? txn = Interlocked.Exchange(ref _idleReaders[(start + i) % _idleReaders.Length], null);
            if (txn is not null)
            {
                Interlocked.Decrement(ref _idleCount);
                try
                {
                    txn.Renew();
                    rc = MDBResultCode.Success;
                    return txn;
                }
                catch (LightningException error)
                {
                    // A failed renew leaves the transaction ended but allocated, and LightningDB no longer aborts it;
                    // reset, it renews once the map is adopted, so it goes back to the pool (unless the pool filled up
                    // meanwhile: then it is dropped, and LMDB's small allocation for it stays until the process ends).
                    rc = CodeOf(error);
                    txn.Reset();
                    if (Interlocked.Increment(ref _idleCount) > IdleReaderCapacity)
                    {
                        Interlocked.Decrement(ref _idleCount);
                        txn.Dispose();
                        return null;
                    }

                    Park(txn);
                    return null;
                }
            }
        }

        try
        {
            rc = MDBResultCode.Success;
            return env.BeginTransaction(TransactionBeginFlags.ReadOnly);
        }
        catch (LightningException error)
        {
            rc = CodeOf(error);
            return null;
        }
    }

    /// <summary>Resets <paramref name="txn"/> (it keeps its reader slot but no snapshot) and pools it, or aborts it when the pool is full.</summary>
    public void Return(LightningTransaction txn)
    {
        // Counted before it is reset, so that one which does not fit is still active and its Dispose aborts it.
        if (Interlocked.Increment(ref _idleCount) > IdleReaderCapacity)
        {
            Interlocked.Decrement(ref _idleCount);
            txn.Dispose();
            return;
        }

        txn.Reset();
        Park(txn);
    }

    /// <summary>Aborts the pooled transactions, which the environment must see ended before it closes.</summary>
    public void Dispose()
    {
        for (int i = 0; i < _idleReaders.Length; i++)
        {
            LightningTransaction? txn = Interlocked.Exchange(ref _idleReaders[i], null);
            if (txn is null)
            {
                continue;
            }

            try
            {
                // Active again, so Dispose aborts it. Should the renew fail, its Dispose only drops the managed object.
                txn.Renew();
            }
            catch (LightningException)
            {
            }

            txn.Dispose();
        }
    }

    /// <summary>Puts a reset transaction in a free slot; <see cref="_idleCount"/> already promised one.</summary>
    private void Park(LightningTransaction txn)
    {
        int start = Environment.CurrentManagedThreadId;
        for (int i = 0; ; i++)
        {
            if (Interlocked.CompareExchange(ref _idleReaders[(start + i) % _idleReaders.Length], txn, null) is null)
            {
                return;
            }
        }
    }
}
