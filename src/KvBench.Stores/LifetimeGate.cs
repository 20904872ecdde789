using System.Numerics;

namespace KvBench.Stores;

/// <summary>
/// Counts the calls inside a store so that closing it waits for them: <see cref="Enter"/> before a call touches the
/// engine, <see cref="Exit"/> after, and <see cref="Close"/> refuses new calls, then returns once none is in flight. A
/// store's native handles are freed only after <see cref="Close"/>, so a call racing <c>Dispose</c> either finishes
/// against live handles or fails with <see cref="ObjectDisposedException"/>, never touching freed memory.
/// </summary>
/// <remarks>
/// The count is striped by processor, each stripe on its own 128 bytes, because every read and write of every thread
/// passes through here: one shared counter would bounce its cache line between cores on each call and tax exactly the
/// multi-threaded reads KvBench measures. A call leaves through the stripe it entered by, so every stripe counts its own
/// calls in flight and never goes below zero.
/// </remarks>
internal sealed class LifetimeGate
{
    /// <summary>Longs between two stripes: 128 bytes, two cache lines, so the adjacent-line prefetcher does not pair them.</summary>
    private const int Stride = 16;

    private readonly long[] _counts;
    private readonly int _stripeMask;
    private int _closed;

    public LifetimeGate()
    {
        int stripes = (int)BitOperations.RoundUpToPowerOf2((uint)Environment.ProcessorCount);
        _stripeMask = stripes - 1;
        _counts = new long[stripes * Stride];
    }

    /// <summary>Whether <see cref="Close"/> has started: no call may enter any more.</summary>
    public bool IsClosed => Volatile.Read(ref _closed) != 0;

    /// <summary>Counts a call in; the stripe it returns is handed to <see cref="Exit"/>.</summary>
    /// <exception cref="ObjectDisposedException"><see cref="Close"/> has started.</exception>
    public int Enter(object owner)
    {
        int stripe = (Thread.GetCurrentProcessorId() & _stripeMask) * Stride;

        // Counted before the check: Close sets the flag before it reads the counts, and both sides use full fences, so
        // either Close sees this call counted or this call sees the flag.
        Interlocked.Increment(ref _counts[stripe]);
        if (Volatile.Read(ref _closed) != 0)
        {
            Interlocked.Decrement(ref _counts[stripe]);
            throw new ObjectDisposedException(owner.GetType().FullName, "The store was disposed.");
        }

        return stripe;
    }

    /// <summary>Counts a call out through the stripe <see cref="Enter"/> gave it.</summary>
    public void Exit(int stripe) => Interlocked.Decrement(ref _counts[stripe]);

    /// <summary>Refuses new calls and waits for those in flight; <see langword="false"/> when it was already closed.</summary>
    public bool Close()
    {
        // The exchange is a full fence: the counts below are read after the flag is visible to every Enter.
        if (Interlocked.Exchange(ref _closed, 1) != 0)
        {
            return false;
        }

        var wait = new SpinWait();
        while (InFlight() != 0)
        {
            // Calls are short, but one may be a synced commit or a batch of many records: SpinWait sleeps after a few spins.
            wait.SpinOnce(sleep1Threshold: 20);
        }

        return true;
    }

    private long InFlight()
    {
        long total = 0;
        for (int stripe = 0; stripe < _counts.Length; stripe += Stride)
        {
            total += Volatile.Read(ref _counts[stripe]);
        }

        return total;
    }
}
