namespace KvBench.Stores;

/// <summary>
/// A small number for each live thread of the process, the lowest free one, handed back when the thread dies, so a table
/// indexed by it (<see cref="ThreadSlots"/>) is as long as the most threads that ever lived at once, not as the number of
/// threads that ever called.
/// </summary>
/// <remarks>
/// The number is kept in a thread-static field, so reading it is a thread-local load. It goes back to the pool when its
/// thread dies: the thread's statics die with it, and with them the one reference to an <see cref="Owner"/>, whose
/// finalizer returns the number. A number is therefore free again only after a garbage collection found its thread
/// dead; until then it is merely unused. A dead thread is inside no call, so whoever gets its number next starts from
/// slots that it left at rest.
/// </remarks>
internal static class ThreadIndex
{
    private static readonly PriorityQueue<int, int> s_free = new();
    private static int s_next;

    /// <summary>This thread's number plus one; 0 until the thread first asks.</summary>
    [ThreadStatic]
    private static int s_indexPlusOne;

    /// <summary>Kept only so that it dies with the thread (see the remarks).</summary>
    [ThreadStatic]
    private static Owner? s_owner;

    /// <summary>The calling thread's number: 0 or more, unique among live threads.</summary>
    public static int Current
    {
        get
        {
            int index = s_indexPlusOne - 1;
            return index >= 0 ? index : Assign();
        }
    }

    /// <summary>How many numbers were ever handed out: one more than the highest in use or free.</summary>
    internal static int HighWater
    {
        get
        {
            lock (s_free)
            {
                return s_next;
            }
        }
    }

    private static int Assign()
    {
        int index;
        lock (s_free)
        {
            index = s_free.TryDequeue(out int free, out _) ? free : s_next++;
        }

        s_owner = new Owner(index);
        s_indexPlusOne = index + 1;
        return index;
    }

    /// <summary>Holds a thread's number for as long as the thread lives.</summary>
    private sealed class Owner(int index)
    {
        ~Owner()
        {
            lock (s_free)
            {
                s_free.Enqueue(index, index);
            }
        }
    }
}
