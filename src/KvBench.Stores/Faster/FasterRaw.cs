using System.Buffers;

using FASTER.core;

using KvBench.Stores.Baselines;

namespace KvBench.Stores.Faster;

/// <summary>
/// <c>FASTER_raw</c>: <c>FasterKV&lt;SpanByte, SpanByte&gt;</c> with the adapter's log settings (managed log device,
/// 8 MiB pages, 64 MiB of log in memory, 4 MiB of index) and one <see cref="ClientSession{Key, Value, Input, Output, Context, Functions}"/>
/// for the target's life; a read that goes pending is completed before it returns. The read callbacks are the
/// adapter's (<see cref="ReadFunctions"/>), which copy the value once into the caller's buffer or a new array.
/// </summary>
/// <remarks>
/// <para>
/// The adapter adds a session per thread (found by the thread's number on every call, so many threads can call it), a
/// pending-read counter, striped locks for Delete, a directory lock against a second process, and StoreAdapter's
/// lifetime gate (each thread's count of calls in flight, which Dispose waits for), error typing and key/value checks;
/// adapter ÷ raw is what they cost.
/// </para>
/// <para>
/// Several threads call through sessions of their own (<see cref="ForAnotherThread"/>), made before they measure, as
/// FASTER means a session to be used: the adapter finds its thread's session on every call instead.
/// </para>
/// <para>
/// Nothing is kept across processes, as with the adapter: neither checkpoints after a load, so a reopened directory
/// starts empty and the benchmark's read-back check makes it load again.
/// </para>
/// </remarks>
internal sealed unsafe class FasterRaw : IPointTarget
{
    private readonly IDevice _device;
    private readonly FasterKV<SpanByte, SpanByte> _store;
    private readonly ClientSession<SpanByte, SpanByte, SpanByte, ReadTarget, Empty, ReadFunctions> _session;

    /// <summary>Whether this target made the store (and disposes it), or is another thread's session on it.</summary>
    private readonly bool _ownsStore = true;

    public FasterRaw(string directory)
    {
        _device = Devices.CreateLogDevice(Path.Combine(directory, "log", "hlog"), preallocateFile: false);
        _store = new FasterKV<SpanByte, SpanByte>(new FasterKVSettings<SpanByte, SpanByte>
        {
            LogDevice = _device,
            // The adapter's settings, so the ratio compares the same log.
            PageSize = 1L << FasterStore.PageSizeBits,
            MemorySize = 1L << FasterStore.MemorySizeBits,
            IndexSize = FasterStore.IndexSizeBytes,
            CheckpointDir = Path.Combine(directory, "checkpoints"),
        });
        _session = _store.For(new ReadFunctions()).NewSession<ReadFunctions>();
    }

    /// <summary>Another session on <paramref name="owner"/>'s store, for another thread.</summary>
    private FasterRaw(FasterRaw owner)
    {
        _device = owner._device;
        _store = owner._store;
        _session = _store.For(new ReadFunctions()).NewSession<ReadFunctions>();
        _ownsStore = false;
    }

    public IPointTarget ForAnotherThread() => new FasterRaw(this);

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* keyPointer = key)
        fixed (byte* valuePointer = value)
        {
            var keyBytes = SpanByte.FromPointer(keyPointer, key.Length);
            var valueBytes = SpanByte.FromPointer(valuePointer, value.Length);

            // Only a checkpoint's version change makes an upsert go pending; this target never checkpoints.
            if (_session.Upsert(ref keyBytes, ref valueBytes).IsPending)
            {
                _session.CompletePending(wait: true);
            }
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => Read(key, ReadTarget.Into(destination), out _);

    public byte[]? Get(ReadOnlySpan<byte> key) => Read(key, ReadTarget.IntoArray(), out ReadTarget read) ? read.Array : null;

    public bool ContainsKey(ReadOnlySpan<byte> key) => Read(key, ReadTarget.ExistenceOnly(), out _);

    public void Dispose()
    {
        _session.Dispose();
        if (_ownsStore)
        {
            _store.Dispose();
            _device.Dispose();
        }
    }

    private bool Read(ReadOnlySpan<byte> key, ReadTarget target, out ReadTarget read)
    {
        Status status;
        fixed (byte* keyPointer = key)
        {
            var keyBytes = SpanByte.FromPointer(keyPointer, key.Length);
            status = _session.Read(ref keyBytes, ref target);
        }

        // A record evicted to the log file is read asynchronously; its output arrives with the completion.
        if (status.IsPending)
        {
            _session.CompletePendingWithOutputs(out CompletedOutputIterator<SpanByte, SpanByte, SpanByte, ReadTarget, Empty> completed, wait: true);
            using (completed)
            {
                completed.Next();
                status = completed.Current.Status;
                target = completed.Current.Output;
            }
        }

        read = target;
        return status.Found;
    }
}
