using KvBench.Stores;

namespace KvBench.Tests.Stores;

/// <summary>
/// The gate itself, without a store: many threads entering while <see cref="LifetimeGate.Close"/> runs, calls inside
/// calls, and threads that come and go. What a store does with it is <c>LifetimeTests</c>' part.
/// </summary>
public sealed class LifetimeGateTests
{
    private const int Rounds = 40;

    [Fact]
    public void Close_returns_only_after_every_entered_call_exited_and_no_call_enters_after_it()
    {
        int callers = Math.Max(4, Environment.ProcessorCount * 2);
        for (int round = 0; round < Rounds; round++)
        {
            var gate = new LifetimeGate();
            int closeReturned = 0;
            long callsInsideAfterClose = 0;
            long calls = 0;
            using var going = new CountdownEvent(callers);
            var stoppedBy = new Exception?[callers];
            Thread[] threads = [.. Enumerable.Range(0, callers).Select(caller => new Thread(() =>
            {
                bool signalled = false;
                try
                {
                    for (int call = 0; ; call++)
                    {
                        LifetimeGate.Call inside = gate.Enter(this);
                        try
                        {
                            // Where a store would touch its engine: it must not have been closed, now or a little later.
                            for (int step = 0; step < 1 + (call % 64); step++)
                            {
                                if (Volatile.Read(ref closeReturned) != 0)
                                {
                                    Interlocked.Increment(ref callsInsideAfterClose);
                                }

                                Thread.SpinWait(4);
                            }
                        }
                        finally
                        {
                            LifetimeGate.Exit(inside);
                        }

                        Interlocked.Increment(ref calls);
                        if (call == 200)
                        {
                            signalled = true;
                            going.Signal();
                        }
                    }
                }
                catch (Exception e)
                {
                    stoppedBy[caller] = e;
                    if (!signalled)
                    {
                        going.Signal();
                    }
                }
            })
            { IsBackground = true })];
            Array.ForEach(threads, thread => thread.Start());

            Assert.True(going.Wait(TimeSpan.FromSeconds(60)), "The callers did not get going.");
            Assert.True(gate.Close());
            Volatile.Write(ref closeReturned, 1);
            Assert.All(threads, thread => Assert.True(thread.Join(TimeSpan.FromSeconds(60)), "A caller did not stop after Close."));

            Assert.Equal(0, Interlocked.Read(ref callsInsideAfterClose));
            Assert.All(stoppedBy, error => Assert.IsType<ObjectDisposedException>(error));
            Assert.True(gate.IsClosed);
            Assert.False(gate.Close());
            Assert.True(Interlocked.Read(ref calls) >= callers * 200L);
        }
    }

    [Fact]
    public void Close_waits_for_a_call_inside_a_call_and_a_thread_cannot_close_a_gate_it_is_inside()
    {
        var gate = new LifetimeGate();
        LifetimeGate.Call outer = gate.Enter(this);
        LifetimeGate.Call inner = gate.Enter(this);
        Assert.Throws<InvalidOperationException>(() => gate.Close());
        Assert.False(gate.IsClosed);
        LifetimeGate.Exit(inner);

        using var closed = new ManualResetEventSlim();
        var closing = new Thread(() =>
        {
            gate.Close();
            closed.Set();
        });
        closing.Start();

        // Not a timing check: however long it is given, Close must not return while the outer call is inside.
        SpinWait.SpinUntil(() => gate.IsClosed, TimeSpan.FromSeconds(60));
        Assert.True(gate.IsClosed);
        Assert.False(closed.Wait(TimeSpan.FromMilliseconds(200)), "Close returned while a call was inside.");
        Assert.Throws<ObjectDisposedException>(() => gate.Enter(this));
        Assert.False(closed.IsSet, "A refused Enter let Close return while a call was inside.");

        LifetimeGate.Exit(outer);
        Assert.True(closed.Wait(TimeSpan.FromSeconds(60)), "Close did not return after the last call exited.");
        Assert.True(closing.Join(TimeSpan.FromSeconds(60)));
    }

    [Fact]
    public void Thousands_of_threads_over_time_leave_no_more_slots_than_lived_at_once()
    {
        const int Batches = 40;
        const int ThreadsPerBatch = 100;
        var gate = new LifetimeGate();
        var other = new LifetimeGate();
        for (int batch = 0; batch < Batches; batch++)
        {
            Thread[] threads = [.. Enumerable.Range(0, ThreadsPerBatch).Select(_ => new Thread(() =>
            {
                // Two gates per thread, one inside the other, as a thread that uses two stores at once would.
                LifetimeGate.Call outer = gate.Enter(this);
                LifetimeGate.Call inner = other.Enter(this);
                LifetimeGate.Exit(inner);
                LifetimeGate.Exit(outer);
            }))];
            Array.ForEach(threads, thread => thread.Start());
            Array.ForEach(threads, thread => thread.Join());

            // A dead thread's number goes back to the pool when a collection finds its thread statics dead.
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        // 4,000 threads called; slots are reused, so the gates hold at most about a batch's worth, plus whatever threads
        // the rest of the test run had alive meanwhile. A leak would leave 4,000. Fewer than a batch is no fault: a
        // collection that another test runs mid-batch hands finished threads' numbers back before the batch's later
        // threads start (the whole suite once left 47).
        Assert.InRange(gate.SlotCount, 1, Batches * ThreadsPerBatch / 4);
        Assert.InRange(other.SlotCount, 1, Batches * ThreadsPerBatch / 4);
        Assert.True(gate.Close());
        Assert.True(other.Close());
    }

    [Fact]
    public void An_exclusive_section_starts_only_when_no_call_is_inside_and_holds_new_calls_back_until_it_ends()
    {
        var gate = new LifetimeGate();
        LifetimeGate.Call inside = gate.Enter(this);
        Assert.Throws<InvalidOperationException>(() => gate.EnterExclusive(this));

        int sectionRunning = 0;
        int callsThatSawTheSection = 0;
        using var sectionStarted = new ManualResetEventSlim();
        using var endSection = new ManualResetEventSlim();
        var section = new Thread(() =>
        {
            gate.EnterExclusive(this);
            Volatile.Write(ref sectionRunning, 1);
            sectionStarted.Set();
            endSection.Wait();
            Volatile.Write(ref sectionRunning, 0);
            gate.ExitExclusive();
        });
        section.Start();

        // Not a timing check: however long it is given, the section must not start while a call is inside.
        Assert.False(sectionStarted.Wait(TimeSpan.FromMilliseconds(200)), "The section started while a call was inside.");

        // A call inside a call goes on while the section waits for the outer one; else neither could end.
        LifetimeGate.Call nested = gate.Enter(this);
        LifetimeGate.Exit(nested);
        LifetimeGate.Exit(inside);
        Assert.True(sectionStarted.Wait(TimeSpan.FromSeconds(60)), "The section did not start after the last call exited.");

        var caller = new Thread(() =>
        {
            LifetimeGate.Call call = gate.Enter(this);
            if (Volatile.Read(ref sectionRunning) != 0)
            {
                Interlocked.Increment(ref callsThatSawTheSection);
            }

            LifetimeGate.Exit(call);
        });
        caller.Start();
        Assert.False(caller.Join(TimeSpan.FromMilliseconds(200)), "A call entered while the section ran.");
        endSection.Set();
        Assert.True(caller.Join(TimeSpan.FromSeconds(60)), "A call held back by the section did not go on after it.");
        Assert.True(section.Join(TimeSpan.FromSeconds(60)));
        Assert.Equal(0, callsThatSawTheSection);

        Assert.True(gate.Close());
        Assert.Throws<ObjectDisposedException>(() => gate.EnterExclusive(this));
    }

    [Fact]
    public void Calls_from_many_threads_never_overlap_exclusive_sections_and_all_go_on()
    {
        var gate = new LifetimeGate();
        int sectionRunning = 0;
        long overlaps = 0;
        long calls = 0;
        using var stop = new ManualResetEventSlim();
        Thread[] callers = [.. Enumerable.Range(0, 4).Select(_ => new Thread(() =>
        {
            while (!stop.IsSet)
            {
                LifetimeGate.Call call = gate.Enter(this);
                if (Volatile.Read(ref sectionRunning) != 0)
                {
                    Interlocked.Increment(ref overlaps);
                }

                Thread.SpinWait(16);
                LifetimeGate.Exit(call);
                Interlocked.Increment(ref calls);
            }
        })
        { IsBackground = true })];
        Array.ForEach(callers, thread => thread.Start());

        for (int section = 0; section < 200; section++)
        {
            gate.EnterExclusive(this);
            Volatile.Write(ref sectionRunning, 1);
            Thread.SpinWait(64);
            Volatile.Write(ref sectionRunning, 0);
            gate.ExitExclusive();
        }

        long before = Interlocked.Read(ref calls);
        SpinWait.SpinUntil(() => Interlocked.Read(ref calls) > before + 100, TimeSpan.FromSeconds(60));
        stop.Set();
        Assert.All(callers, thread => Assert.True(thread.Join(TimeSpan.FromSeconds(60)), "A caller did not stop."));

        Assert.Equal(0, Interlocked.Read(ref overlaps));
        Assert.True(Interlocked.Read(ref calls) > before + 100, "Calls did not go on after the sections.");
        Assert.True(gate.Close());
    }

    [Fact]
    public void A_gate_closed_inside_an_exclusive_section_stays_closed_after_it()
    {
        var gate = new LifetimeGate();
        gate.EnterExclusive(this);
        Assert.True(gate.Close());
        gate.ExitExclusive();

        Assert.True(gate.IsClosed);
        Assert.Throws<ObjectDisposedException>(() => gate.Enter(this));
    }
}
