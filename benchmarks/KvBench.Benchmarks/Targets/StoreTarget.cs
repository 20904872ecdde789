using System.Buffers;

using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks.Targets;

/// <summary>A catalog row: the KvBench adapter, driven only through <see cref="IKeyValueStore"/>.</summary>
internal sealed class StoreTarget(IKeyValueStore store) : IPointTarget
{
    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => store.Put(key, value);

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => store.TryGet(key, destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => store.Get(key);

    public bool ContainsKey(ReadOnlySpan<byte> key) => store.ContainsKey(key);

    public void Load(RecordSet records, long count) => records.Load(store, count);

    public void Dispose() => store.Dispose();
}
