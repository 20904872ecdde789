namespace KvBench.Stores;

/// <summary>
/// Counts the calls inside a store so that closing it waits for them: <see cref="Enter"/> before a call touches the
/// engine, <see cref="Exit"/> after, and <see cref="Close"/> refuses new calls, then returns once none is in flight. A
/// store's native handles are freed only after <see cref="Close"/>, so a call racing <c>Dispose</c> either finishes
/// against live handles or fails with <see cref="ObjectDisposedException"/>, never touching freed memory. The same
/// counts serve a rare section that must run with no call inside, after which calls go on
/// (<see cref="EnterExclusive"/>: LMDB's remap, which needs every transaction of the process ended).
/// </summary>
/// <remarks>
/// <para>
/// Every read and write of every thread passes through here, so a call pays no locked instruction: each thread counts
/// its own calls in flight in a slot of its own (<see cref="ThreadSlots"/>) with plain stores, and <see cref="Close"/>,
/// which runs once per store, pays for the ordering instead, with a process-wide memory barrier. This is the asymmetric
/// scheme of epoch protection (FASTER's and Garnet's <c>LightEpoch</c>: per-thread entries written with plain stores,
/// the cost moved to the rare operation). A count, not a flag, because a call can run inside another on one thread:
/// <c>PutMany</c> enumerates the caller's items inside the gate, and the caller's enumerator may read the store.
/// </para>
/// <para>
/// Why no call is inside the engine when <see cref="Close"/> returns. <see cref="Enter"/> does (1) store "one more
/// call" into its slot, then (2) load "closed". <see cref="Close"/> does (a) set "closed" with an interlocked exchange,
/// a full fence, so it is visible to every processor before (b), <see cref="Interlocked.MemoryBarrierProcessWide"/>
/// (FlushProcessWriteBuffers: Linux's membarrier, or an interprocessor interrupt), which returns only after every
/// processor running a thread of this process has executed a full memory barrier (a thread not running then has been
/// switched out, itself a full barrier), then (c) reads every slot. Without a fence between (1) and (2), a processor may
/// let the load (2) pass the store (1) still waiting in its store buffer (x64 does; this store-then-load pair is the one
/// reordering it allows), so the barrier of (b) lands in the entering thread's instruction stream either after (1), and
/// then drains (1) so that (c) sees the call counted and waits for its <see cref="Exit"/>; or before (1), and then (2)
/// runs after a barrier that came after (a) was visible, so it sees "closed" and the call leaves before touching the
/// engine. The compiler keeps (1) before (2): both are volatile accesses, and the JIT moves no memory access across a
/// volatile one (the .NET memory model alone makes a volatile store and a later volatile load no promise; on arm64 they
/// become stlr and ldar, which the processor also keeps in order).
/// <see cref="Exit"/> stores "one fewer call" with release semantics, so what the call did is done before
/// <see cref="Close"/>, reading the slot with acquire semantics, sees it leave. A slot made after (c) read the table was
/// made under the lock that (c) took after (a), so its thread's load (2) sees "closed".
/// </para>
/// <para>
/// An exclusive section is a close that ends: it sets "paused" in place of "closed" with the same (a), (b) and (c), so
/// when it starts no call is inside, and a call that meets "paused" steps back out and waits on the section's lock
/// until the section has set "open" again. It costs the calls nothing more: they read one state either way.
/// </para>
/// <para>
/// A slot is written only by its own thread, so a call must leave on the thread it entered on (every call of
/// <see cref="StoreAdapter"/> is synchronous), and a thread cannot close a store it is inside, nor start an exclusive
/// section inside a call: it would wait for itself.
/// </para>
/// </remarks>
internal sealed class LifetimeGate
{
    /// <summary>Where a slot holds its thread's calls in flight.</summary>
    private const int Depth = ThreadSlots.First;

    private const int Open = 0;
    private const int Paused = 1;
    private const int Closed = 2;

    private readonly ThreadSlots _slots = new();

    /// <summary>Held by an exclusive section and by <see cref="Close"/> while it sets "closed": one at a time.</summary>
    private readonly Lock _exclusive = new();
    private int _state;

    /// <summary>Whether <see cref="Close"/> has started: no call may enter any more.</summary>
    public bool IsClosed => Volatile.Read(ref _state) == Closed;

    /// <summary>How many per-thread slots this gate made: at most the most threads alive at once that called it.</summary>
    internal int SlotCount => _slots.Count;

    /// <summary>Counts a call in; the call it returns is handed to <see cref="Exit"/> on the same thread.</summary>
    /// <exception cref="ObjectDisposedException"><see cref="Close"/> has started.</exception>
    public Call Enter(object owner)
    {
        long[] slot = _slots.Current;
        long depth = slot[Depth];

        // (1) then (2) of the remarks: plain stores and loads; Close's process-wide barrier orders them against it.
        Volatile.Write(ref slot[Depth], depth + 1);
        if (Volatile.Read(ref _state) != Open)
        {
            Volatile.Write(ref slot[Depth], depth);
            return EnterAfterPauseOrThrow(slot, owner);
        }

        return new Call(slot);
    }

    /// <summary>Counts a call out; on the thread that entered.</summary>
    public static void Exit(Call call) => Volatile.Write(ref call.Slot[Depth], call.Slot[Depth] - 1);

    /// <summary>Refuses new calls and waits for those in flight; <see langword="false"/> when it was already closed.</summary>
    /// <exception cref="InvalidOperationException">The calling thread is inside a call of this gate.</exception>
    public bool Close()
    {
        if (_slots.Current[Depth] != 0)
        {
            throw new InvalidOperationException(
                "A store cannot be disposed from inside one of its own calls (say, a PutMany enumerator): Dispose " +
                    "waits for that call to end.");
        }

        lock (_exclusive)
        {
            // (a): the exchange is a full fence, so "closed" is visible everywhere before the barrier.
            if (Interlocked.Exchange(ref _state, Closed) == Closed)
            {
                return false;
            }
        }

        WaitForCallsInFlight();
        return true;
    }

    /// <summary>
    /// Holds new calls back and returns once none is in flight, for a section that needs the engine to itself; end it
    /// with <see cref="ExitExclusive"/> on the same thread. Calls that arrive meanwhile wait, then go on.
    /// </summary>
    /// <exception cref="InvalidOperationException">The calling thread is inside a call of this gate.</exception>
    /// <exception cref="ObjectDisposedException"><see cref="Close"/> has started.</exception>
    public void EnterExclusive(object owner)
    {
        if (_slots.Current[Depth] != 0)
        {
            throw new InvalidOperationException("An exclusive section cannot start inside a call of its gate: it waits for every call to end.");
        }

        _exclusive.Enter();
        if (Interlocked.CompareExchange(ref _state, Paused, Open) != Open)
        {
            _exclusive.Exit();
            throw new ObjectDisposedException(owner.GetType().FullName, "The store was disposed.");
        }

        WaitForCallsInFlight();
    }

    /// <summary>Ends the section <see cref="EnterExclusive"/> started, letting calls in again.</summary>
    public void ExitExclusive()
    {
        // A full fence, so what the section did is done before a call that reads "open" goes on; and a compare, so a
        // Close from inside the section (the lock lets its own thread in) is not undone.
        Interlocked.CompareExchange(ref _state, Open, Paused);
        _exclusive.Exit();
    }

    /// <summary>(b) and (c) of the remarks, after "closed" or "paused" was set.</summary>
    private void WaitForCallsInFlight()
    {
        // (b): after this, every call either is counted in its slot or will see the state set before it.
        Interlocked.MemoryBarrierProcessWide();

        // (c)
        var wait = new SpinWait();
        foreach (long[] slot in _slots.All())
        {
            while (Volatile.Read(ref slot[Depth]) != 0)
            {
                // Calls are short, but one may be a synced commit or a batch of many records: SpinWait sleeps after a few spins.
                wait.SpinOnce(sleep1Threshold: 20);
            }
        }
    }

    /// <summary>The slow path of <see cref="Enter"/>: throws once closed; while paused, waits for the section to end and enters again.</summary>
    private Call EnterAfterPauseOrThrow(long[] slot, object owner)
    {
        while (true)
        {
            if (Volatile.Read(ref _state) == Closed)
            {
                throw new ObjectDisposedException(owner.GetType().FullName, "The store was disposed.");
            }

            // A call inside a call of this thread: the section waits for the outer one, so it has not started, and this
            // one must go on for the outer one to end.
            long depth = slot[Depth];
            if (depth > 0)
            {
                Volatile.Write(ref slot[Depth], depth + 1);
                return new Call(slot);
            }

            // A section sets "paused" only while it holds the lock and "open" before it lets go, so this returns once
            // the section that made the call step back has ended.
            lock (_exclusive)
            {
            }

            Volatile.Write(ref slot[Depth], 1);
            if (Volatile.Read(ref _state) == Open)
            {
                return new Call(slot);
            }

            Volatile.Write(ref slot[Depth], 0);
        }
    }

    /// <summary>A call inside the gate: the slot of the thread that entered.</summary>
    internal readonly struct Call(long[] slot)
    {
        public long[] Slot { get; } = slot;
    }
}
