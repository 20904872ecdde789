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

        // 4,000 threads called; slots are reused, so the gates hold about a batch's worth, plus whatever threads the
        // rest of the test run had alive meanwhile. A leak would leave 4,000.
        Assert.InRange(gate.SlotCount, ThreadsPerBatch, Batches * ThreadsPerBatch / 4);
        Assert.InRange(other.SlotCount, ThreadsPerBatch, Batches * ThreadsPerBatch / 4);
        Assert.True(gate.Close());
        Assert.True(other.Close());
    }
}
