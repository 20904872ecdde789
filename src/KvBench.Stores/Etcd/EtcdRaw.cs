using System.Buffers;

using dotnet_etcd;

using Etcdserverpb;

using Google.Protobuf;

using KvBench.Stores.Baselines;

using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// <c>etcd_raw</c>: dotnet-etcd used directly on the etcd row's cluster, the adapter's requests (a Put, a linearizable
/// Range, a count-only Range) under the same key prefix, without the contract around them.
/// </summary>
internal sealed class EtcdRaw : IPointTarget
{
    private readonly EtcdClient _client;
    private readonly byte[] _valuePrefix;

    public EtcdRaw(string directory)
    {
        ServerRawStore store = ServerRawStore.For(EtcdRow.RowName, directory);
        _valuePrefix = EtcdStore.ValuePrefix(store.StoreName);
        _client = EtcdStore.Connect(store.Endpoint);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        _client.Put(new PutRequest { Key = ValueKey(key), Value = ByteString.CopyFrom(value) });

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        RangeResponse found = _client.Get(new RangeRequest { Key = ValueKey(key) });
        if (found.Kvs.Count == 0)
        {
            return false;
        }

        destination.Write(found.Kvs[0].Value.Span);
        return true;
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        RangeResponse found = _client.Get(new RangeRequest { Key = ValueKey(key) });
        return found.Kvs.Count == 0 ? null : found.Kvs[0].Value.ToByteArray();
    }

    public bool ContainsKey(ReadOnlySpan<byte> key) =>
        _client.Get(new RangeRequest { Key = ValueKey(key), CountOnly = true }).Count > 0;

    public void Dispose() => _client.Dispose();

    private ByteString ValueKey(ReadOnlySpan<byte> key) => EtcdStore.ValueKey(_valuePrefix, key);
}
