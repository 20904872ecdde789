using System.Buffers;

using KvBench.Core;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks.Targets;

/// <summary>A catalog row: the KvBench adapter, driven only through <see cref="IKeyValueStore"/>.</summary>
internal sealed class StoreTarget(IKeyValueStore store) : IPointTarget
{
    /// <summary>The batch RecordSet.Load writes a row's records in, so a preloaded file is the one a workload loads.</summary>
    private const int LoadBatchRecords = 1000;

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => store.Put(key, value);

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => store.TryGet(key, destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => store.Get(key);

    public bool ContainsKey(ReadOnlySpan<byte> key) => store.ContainsKey(key);

    public void Load(IEnumerable<KeyValuePair<byte[], byte[]>> records)
    {
        foreach (KeyValuePair<byte[], byte[]>[] batch in records.Chunk(LoadBatchRecords))
        {
            store.PutMany(batch);
        }
    }

    public void Dispose() => store.Dispose();
}
