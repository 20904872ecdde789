using System.Diagnostics;
using System.Text.Json;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// One side of a two-process check, run inside a child process (<c>kvbench mp-worker</c>): it opens the store, writes its
/// own records (or, without write access, tries one write), keeps reading the peer's records, and reports what it saw as
/// JSON lines until a <c>stop</c> line (or the end of its input) arrives.
/// </summary>
public static class MultiProcessWorker
{
    /// <summary>The line on the worker's input that asks it to finish.</summary>
    public const string StopCommand = "stop";

    private const int ErrorsKept = 10;

    /// <summary>Runs the worker until it is asked to stop or <see cref="WorkerOptions.MaxDuration"/> passes.</summary>
    /// <param name="options">What to open and whose records to write and read.</param>
    /// <param name="commands">Where <see cref="StopCommand"/> arrives; its end also means stop.</param>
    /// <param name="output">Where the JSON lines go.</param>
    public static WorkerOutcome Run(WorkerOptions options, TextReader commands, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(commands);
        ArgumentNullException.ThrowIfNull(output);

        var stop = new StopSignal(commands);
        var clock = Stopwatch.StartNew();
        IKeyValueStore store;
        try
        {
            StoreRow row = StoreCatalog.Row(options.Store);
            var storeOptions = new StoreOptions { Directory = options.Directory, Durability = options.Durability, Access = options.Access };
            store = row.Open(options.InitialSizeBytes is { } initialBytes ? row.WithInitialSize(storeOptions, initialBytes) : storeOptions);
        }
        catch (Exception e)
        {
            var failed = new WorkerResult
            {
                Worker = options.Name,
                Store = options.Store,
                Access = options.Access,
                Opened = false,
                OpenMilliseconds = clock.Elapsed.TotalMilliseconds,
                OpenError = e.GetType().Name,
                OpenErrorMessage = e.Message,
            };
            Emit(output, new WorkerMessage(WorkerMessage.Finished, failed));
            return new WorkerOutcome(failed, e);
        }

        using (store)
        {
            var state = new WorkerState(options, store, clock.Elapsed.TotalMilliseconds);
            state.Start();
            Emit(output, new WorkerMessage(WorkerMessage.Ready));
            while (!(stop.Requested && state.WroteEnough) && clock.Elapsed < options.MaxDuration)
            {
                state.WriteNext();
                state.LookForPeer();
                if (state.PeerSeen > 0 && !state.SawPeerReported)
                {
                    state.SawPeerReported = true;
                    Emit(output, new WorkerMessage(WorkerMessage.SawPeer));
                }

                if (options.Pause > TimeSpan.Zero)
                {
                    Thread.Sleep(options.Pause);
                }
            }

            long seenWhileRunning = state.PeerSeen;
            state.LookForPeer();
            WorkerResult result = state.Result(seenWhileRunning);
            Emit(output, new WorkerMessage(WorkerMessage.Finished, result));
            return new WorkerOutcome(result, null);
        }
    }

    private static void Emit(TextWriter output, WorkerMessage message)
    {
        output.WriteLine(JsonSerializer.Serialize(message, WorkerJsonContext.Default.WorkerMessage));
        output.Flush();
    }

    /// <summary>The worker's state while the store is open; every store call's error is counted, never thrown.</summary>
    private sealed class WorkerState(WorkerOptions options, IKeyValueStore store, double openMilliseconds)
    {
        private readonly RecordSet _own = WorkerRecords.For(options.Name);
        private readonly RecordSet _peer = WorkerRecords.For(options.Peer);
        private readonly List<string> _errors = [];
        private long _errorCount;
        private long _wrongPeerValues;
        private string? _writeRefusedWith;

        public long Written { get; private set; }

        public long PeerSeen { get; private set; }

        public bool SawPeerReported { get; set; }

        /// <summary>Whether a stop may be honoured: a writer has written its minimum; a worker that cannot write has nothing to wait for.</summary>
        public bool WroteEnough => options.Access != StoreAccess.ReadWrite || Written >= options.MinimumWrites;

        /// <summary>A writer acknowledges its first record before it says it is ready; a reader tries its one write.</summary>
        public void Start()
        {
            if (options.Access == StoreAccess.ReadWrite)
            {
                WriteNext();
                return;
            }

            try
            {
                store.Put(_own.Key(0), _own.Value(0));
            }
            catch (Exception e)
            {
                _writeRefusedWith = e.GetType().Name;
            }
        }

        public void WriteNext()
        {
            if (options.Access != StoreAccess.ReadWrite)
            {
                return;
            }

            try
            {
                store.Put(_own.Key(Written), _own.Value(Written));
                if (options.FlushEachWrite)
                {
                    store.Flush();
                }

                Written++;
            }
            catch (Exception e)
            {
                Record(e);
            }
        }

        /// <summary>Reads the peer's records from the first not yet seen, as far as they are present.</summary>
        public void LookForPeer()
        {
            try
            {
                // A follower catches up with the writer on Flush; for every other store it is harmless.
                if (options.Access == StoreAccess.Secondary)
                {
                    store.Flush();
                }

                while (store.Get(_peer.Key(PeerSeen)) is { } value)
                {
                    if (!value.AsSpan().SequenceEqual(_peer.Value(PeerSeen)))
                    {
                        _wrongPeerValues++;
                        break;
                    }

                    PeerSeen++;
                }
            }
            catch (Exception e)
            {
                Record(e);
            }
        }

        public WorkerResult Result(long peerSeenWhileRunning) => new()
        {
            Worker = options.Name,
            Store = store.Name,
            Access = options.Access,
            Opened = true,
            OpenMilliseconds = openMilliseconds,
            Written = Written,
            WriteRefusedWith = options.Access == StoreAccess.ReadWrite ? null : _writeRefusedWith,
            PeerSeenWhileRunning = peerSeenWhileRunning,
            PeerSeen = PeerSeen,
            WrongPeerValues = _wrongPeerValues,
            ErrorCount = _errorCount,
            Errors = _errors,
        };

        private void Record(Exception e)
        {
            _errorCount++;
            if (_errors.Count < ErrorsKept)
            {
                _errors.Add($"{e.GetType().Name}: {e.Message}");
            }
        }
    }

    /// <summary>Watches the command input on a background thread: a <c>stop</c> line or its end asks the worker to finish.</summary>
    private sealed class StopSignal
    {
        private volatile bool _requested;

        public StopSignal(TextReader commands)
        {
            var thread = new Thread(() =>
            {
                string? line;
                while ((line = commands.ReadLine()) is not null && !string.Equals(line.Trim(), StopCommand, StringComparison.OrdinalIgnoreCase))
                {
                }

                _requested = true;
            })
            {
                IsBackground = true,
                Name = "kvbench worker stop signal",
            };
            thread.Start();
        }

        public bool Requested => _requested;
    }
}
