namespace KvBench.Stores;

/// <summary>
/// One object per live thread, made on the thread's first call: the thread's <see cref="Current"/> object is found with a
/// thread-local read and an array index, where a <see cref="ThreadLocal{T}"/> lookup costs a few nanoseconds more on
/// every call. Indexed by <see cref="ThreadIndex"/>, so a thread that dies leaves its object to the next thread given
/// its number, and the table never holds more objects than the most threads that lived at once.
/// </summary>
/// <remarks>
/// An object is used by one live thread at a time, but not always the same thread over its life: it must not depend on
/// which thread uses it (a FASTER session does not; a thread-affine handle would). An object never moves once made:
/// growing the table copies references, so a thread that found its object in an older table uses the one
/// <see cref="All"/> returns.
/// </remarks>
/// <typeparam name="T">What each thread owns.</typeparam>
internal sealed class PerThread<T>(Func<T> create)
    where T : class
{
    private readonly Lock _growing = new();
    private T?[] _items = new T?[4];

    /// <summary>The calling thread's object, made on its first call.</summary>
    public T Current
    {
        get
        {
            int index = ThreadIndex.Current;
            T?[] items = _items;
            return (uint)index < (uint)items.Length && items[index] is { } item ? item : Add(index);
        }
    }

    /// <summary>
    /// Every object made so far. A thread that gets its first object after this returns took the lock this takes after
    /// it was released, so it sees everything that happened before the call.
    /// </summary>
    public T[] All()
    {
        lock (_growing)
        {
            return [.. _items.OfType<T>()];
        }
    }

    private T Add(int index)
    {
        lock (_growing)
        {
            T?[] items = _items;
            if (index >= items.Length)
            {
                Array.Resize(ref items, Math.Max(index + 1, items.Length * 2));
            }

            T item = items[index] ??= create();
            Volatile.Write(ref _items, items);
            return item;
        }
    }
}
