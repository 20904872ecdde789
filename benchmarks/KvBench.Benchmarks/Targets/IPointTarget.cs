using System.Buffers;

using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks.Targets;

/// <summary>
/// What a point-operation benchmark drives: an adapter, a raw-driver baseline or a naive usage. One interface for all
/// three, so every row pays the same call into the benchmark and a ratio between rows measures only what is behind it.
/// </summary>
internal interface IPointTarget : IDisposable
{
    void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    byte[]? Get(ReadOnlySpan<byte> key);

    bool ContainsKey(ReadOnlySpan<byte> key);

    /// <summary>
    /// The handle through which one more thread calls while others call too: the target itself (the default) when it
    /// is safe to call from many threads, a handle of its own when the driver's way is a handle per thread (FASTER's
    /// sessions). Called on the thread that will use it, and only for rows that serve many threads
    /// (<see cref="PointTargets.ServesManyThreads"/>). A handle other than the target is disposed by its thread.
    /// </summary>
    IPointTarget ForAnotherThread() => this;

    /// <summary>Writes records 0 to <paramref name="count"/> - 1 before measuring; a target with a bulk path uses it.</summary>
    void Load(RecordSet records, long count)
    {
        for (long i = 0; i < count; i++)
        {
            Put(records.Key(i), records.Value(i));
        }
    }
}
