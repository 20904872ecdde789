using System.Buffers;

using KvBench.Core;

namespace KvBench.Tests.Probes;

/// <summary>A real store that claims capabilities it does not have, to show the probes catch a wrong claim.</summary>
internal sealed class MisdeclaredStore(IKeyValueStore inner, StoreCapabilities claimed) : IKeyValueStore
{
    public string Name => inner.Name;

    public StoreCapabilities Capabilities => claimed;

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => inner.Put(key, value);

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => inner.TryGet(key, destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => inner.Get(key);

    public bool ContainsKey(ReadOnlySpan<byte> key) => inner.ContainsKey(key);

    public bool Delete(ReadOnlySpan<byte> key) => inner.Delete(key);

    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix) => inner.ScanPrefix(prefix);

    public IEnumerable<KeyValuePair<byte[], byte[]>> ScanFrom(ReadOnlyMemory<byte> startKey, int limit) => inner.ScanFrom(startKey, limit);

    public void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items) => inner.PutMany(items);

    public void Flush() => inner.Flush();

    public void Dispose() => inner.Dispose();
}
