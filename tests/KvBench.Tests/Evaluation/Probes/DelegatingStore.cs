using System.Buffers;

using KvBench.Core;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>A real store passed through call for call; a test's subclass changes the one thing it shows a probe catching.</summary>
internal abstract class DelegatingStore(IKeyValueStore inner) : IKeyValueStore
{
    public string Name => inner.Name;

    public virtual StoreCapabilities Capabilities => inner.Capabilities;

    public virtual void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => inner.Put(key, value);

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
