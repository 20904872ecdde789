namespace KvBench.Stores;

/// <summary>
/// A slot of a few longs per thread, for counters that only their own thread writes: the thread's <see cref="Current"/>
/// slot is found with a thread-local read and an array index, and other threads only read it, through <see cref="All"/>.
/// Slots are kept by <see cref="PerThread{T}"/>, so a thread that dies leaves its slot to the next thread given its
/// number, and the table never holds more slots than the most threads that lived at once.
/// </summary>
/// <remarks>
/// A slot is an array of its own, <see cref="SlotLongs"/> long, and its owner uses the longs from <see cref="First"/>
/// on: they lie at least 128 bytes from the array's header (which a bounds check reads) and from the array's end, so
/// no other thread's slot or any other object written by another thread shares their cache line, nor the line the
/// adjacent-line prefetcher pairs with it.
/// </remarks>
internal sealed class ThreadSlots
{
    /// <summary>The first long of a slot that its owner may use; the next seven are usable too.</summary>
    public const int First = 16;

    private const int SlotLongs = 40;

    private readonly PerThread<long[]> _slots = new(static () => new long[SlotLongs]);

    /// <summary>The calling thread's slot, made on its first call.</summary>
    public long[] Current => _slots.Current;

    /// <summary>How many slots were made: at most the most threads of the process that were alive at once.</summary>
    public int Count => _slots.All().Length;

    /// <summary>
    /// Every slot made so far. A thread that gets its first slot after this returns took the lock this takes after it
    /// was released, so it sees everything that happened before the call.
    /// </summary>
    public long[][] All() => _slots.All();
}
