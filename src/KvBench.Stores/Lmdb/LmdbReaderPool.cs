using LightningDB;

using static KvBench.Stores.Lmdb.LmdbException;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// Reset read transactions kept for reuse: a read rents one, renews it, and returns it reset. Each thread keeps one of
/// its own, taken and given back with plain stores; a thread without one (a read inside another read of the same
/// thread, or past the first <see cref="PerThreadReaders"/> threads) uses a shared pool, lock-free.
/// </summary>
/// <remarks>
/// <para>
/// The environment is opened with MDB_NOTLS (<see cref="EnvironmentOpenFlags.NoThreadLocalStorage"/>), so a read
/// transaction owns its reader slot instead of its thread's: a reset transaction can be renewed by whichever thread
/// reads next, which keeps reader slots bounded by how many reads run at once rather than by how many threads ever read.
/// The pool is not synchronised with map resizes: its owner (<see cref="LmdbEnvironment"/>) calls it only inside its
/// transactions' gate, which a resize waits to drain, and <see cref="Dispose"/> after every call has ended.
/// </para>
/// <para>
/// A thread's own transaction is what makes a read pay no locked instruction here: the shared pool's take and give-back
/// are four (an exchange, a compare-exchange and the count's two adds), which, with the reader-writer lock the
/// transactions' gate replaced, cost LMDB's Get a measurable share over a raw driver that renews and resets one
/// transaction of its own (measured paired). Only the owning thread writes its entry,
/// and <see cref="Dispose"/> reads them after the adapter's gate let every call end. Entries sit 128 bytes apart, so
/// threads reading at once do not write one cache line.
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

    /// <summary>Threads, by <see cref="ThreadIndex"/>, that keep a transaction of their own; the rest share the pool.</summary>
    private const int PerThreadReaders = 64;

    /// <summary>References per thread's entry: 16 × 8 bytes, a cache line and the one the adjacent-line prefetcher pairs with it.</summary>
    private const int EntryStride = 16;

    private readonly LightningTransaction?[] _idleReaders = new LightningTransaction?[IdleReaderCapacity];
    private readonly LightningTransaction?[] _threadReaders = new LightningTransaction?[(PerThreadReaders + 1) * EntryStride];

    // Read transactions taken from or given back to the pool, so Return knows without a lock whether one fits.
    private int _idleCount;

    /// <summary>
    /// A renewed read transaction from the pool, or a new one; <see langword="null"/> with the code in
    /// <paramref name="rc"/> when LMDB refused (MDB_MAP_RESIZED among them).
    /// </summary>
    public LightningTransaction? Rent(out MDBResultCode rc)
    {
        int entry = ThreadEntry();
        if (entry >= 0 && _threadReaders[entry] is { } own)
        {
            // Taken out while in use, so a read inside this one (a scan's caller reading) finds none and uses the pool.
            _threadReaders[entry] = null;
            try
            {
                own.Renew();
                rc = MDBResultCode.Success;
                return own;
            }
            catch (LightningException error)
            {
                // As below: reset, it renews once the map is adopted.
                rc = CodeOf(error);
                own.Reset();
                _threadReaders[entry] = own;
                return null;
            }
        }

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
        int entry = ThreadEntry();
        if (entry >= 0 && _threadReaders[entry] is null)
        {
            txn.Reset();
            _threadReaders[entry] = txn;
            return;
        }

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
        foreach (LightningTransaction?[] readers in new[] { _idleReaders, _threadReaders })
        {
            for (int i = 0; i < readers.Length; i++)
            {
                LightningTransaction? txn = Interlocked.Exchange(ref readers[i], null);
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
    }

    /// <summary>Where the calling thread keeps its own transaction in <see cref="_threadReaders"/>, or -1 when it has none.</summary>
    private static int ThreadEntry()
    {
        int index = ThreadIndex.Current;

        // Entry 0 is left empty: its line is the one the array's header and length (read by every bounds check) lie on.
        return index < PerThreadReaders ? (index + 1) * EntryStride : -1;
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
