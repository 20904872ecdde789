using System.Buffers;

using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// The calling thread and <c>threads - 1</c> helper threads that call one target at once, each through its own handle
/// (<see cref="IPointTarget.ForAnotherThread"/>) on its own contiguous block of the keys, walked round-robin so no two
/// threads write one key. <see cref="Run"/> starts every thread's share together and returns when all have finished.
/// </summary>
internal sealed class CallingThreads : IDisposable
{
    private readonly Barrier _start;
    private readonly Barrier _end;
    private readonly Thread[] _helpers;
    private readonly Share _main;
    private Action<Share>? _operation;
    private Exception? _failure;

    /// <summary>
    /// Starts the helper threads, each making its handle and buffer on its own thread so they lie apart from the others';
    /// their loops are <paramref name="role"/>'s copy (<see cref="PairedRole"/>: threads of a row and of its raw driver
    /// in one process call through loops of their own).
    /// </summary>
    public CallingThreads(IPointTarget target, VersionedRecords records, int threads, int valueBytes, PairedRole role = PairedRole.Row)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(threads);
        _start = new Barrier(threads);
        _end = new Barrier(threads);
        _main = new Share(target, records, 0, threads, valueBytes, role);
        using var ready = new CountdownEvent(threads - 1);
        _helpers = [
            .. Enumerable.Range(1, threads - 1).Select(thread =>
                new Thread(() =>
                    Serve(new Share(target, records, thread, threads, valueBytes, role), ready))
                    {
                        IsBackground = true,
                        Name = $"kvbench-caller-{thread}",
                    })];
        Array.ForEach(_helpers, helper => helper.Start());
        ready.Wait();
    }

    /// <summary>Runs <paramref name="operation"/> on every thread's share at once; throws what any thread threw.</summary>
    /// <exception cref="InvalidOperationException">A calling thread failed; the inner exception says how.</exception>
    public void Run(Action<Share> operation)
    {
        _operation = operation;
        _start.SignalAndWait();
        try
        {
            operation(_main);
        }
        finally
        {
            _end.SignalAndWait();
        }

        if (Interlocked.Exchange(ref _failure, null) is { } failure)
        {
            throw new InvalidOperationException("A calling thread failed.", failure);
        }
    }

    /// <summary>Stops the helper threads, which dispose their handles.</summary>
    public void Dispose()
    {
        _operation = null;
        _start.SignalAndWait();
        Array.ForEach(_helpers, helper => helper.Join());
        _start.Dispose();
        _end.Dispose();
    }

    private void Serve(Share share, CountdownEvent ready)
    {
        ready.Signal();
        try
        {
            while (true)
            {
                _start.SignalAndWait();
                if (_operation is not { } operation)
                {
                    return;
                }

                try
                {
                    operation(share);
                }
                catch (Exception e)
                {
                    _failure = e;
                }
                finally
                {
                    _end.SignalAndWait();
                }
            }
        }
        finally
        {
            share.Dispose();
        }
    }

    /// <summary>One thread's handle, buffer and block of keys.</summary>
    internal sealed class Share : IDisposable
    {
        private readonly ArrayBufferWriter<byte> _buffer;
        private readonly IPointTarget _handle;
        private readonly IPointTarget _shared;
        private readonly VersionedRecords _records;
        private readonly int _first;
        private readonly int _count;
        private readonly PairedRole _role;
        private int _cursor;

        public Share(IPointTarget target, VersionedRecords records, int thread, int threads, int valueBytes, PairedRole role)
        {
            _role = role;
            _records = records;
            _shared = target;
            _handle = thread == 0 ? target : target.ForAnotherThread();
            _first = (int)((long)records.Count * thread / threads);
            _count = (int)((long)records.Count * (thread + 1) / threads) - _first;
            _buffer = new ArrayBufferWriter<byte>(valueBytes);
        }

        /// <summary><paramref name="operations"/> Puts, each writing the next version of the next key of this thread's block.</summary>
        public void Put(int operations)
        {
            if (_role == PairedRole.Row)
            {
                Put<RowLoops>(operations);
            }
            else
            {
                Put<ReferenceLoops>(operations);
            }
        }

        /// <summary><paramref name="operations"/> Gets through TryGet into this thread's reused buffer.</summary>
        /// <exception cref="InvalidDataException">A key every read should find was missing.</exception>
        public void Get(int operations)
        {
            if (_role == PairedRole.Row)
            {
                Get<RowLoops>(operations);
            }
            else
            {
                Get<ReferenceLoops>(operations);
            }
        }

        public void Dispose()
        {
            if (!ReferenceEquals(_handle, _shared))
            {
                _handle.Dispose();
            }
        }

        private void Put<TLoops>(int operations)
            where TLoops : struct
        {
            // The cursor is kept in a local while the share runs: the shares' fields may share a cache line.
            int cursor = _cursor;
            for (int i = 0; i < operations; i++)
            {
                int index = _first + cursor;
                cursor = cursor + 1 == _count ? 0 : cursor + 1;
                _handle.Put(_records.Key(index), _records.Rewrite(index));
            }

            _cursor = cursor;
        }

        private void Get<TLoops>(int operations)
            where TLoops : struct
        {
            int cursor = _cursor;
            for (int i = 0; i < operations; i++)
            {
                int index = _first + cursor;
                cursor = cursor + 1 == _count ? 0 : cursor + 1;
                _buffer.ResetWrittenCount();
                if (!_handle.TryGet(_records.Key(index), _buffer))
                {
                    throw new InvalidDataException($"Record {index} was missing.");
                }
            }

            _cursor = cursor;
        }
    }
}
