using System.Buffers;
using System.Text;

using dotnet_etcd;

using Etcdserverpb;

using Google.Protobuf;

using Grpc.Core;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// A store in an etcd cluster: each key under the store's prefix, read and written through etcd's KV API (Put, Range,
/// DeleteRange, Txn). Every read is linearizable (etcd's default: the member asks the leader for its commit index
/// first), or serializable when <see cref="EtcdStoreOptions.SerializableReads"/> asks for it. Scans are range requests,
/// which etcd answers from its key index in byte order. An empty marker key says
/// the store exists even while it holds no key.
/// </summary>
internal sealed class EtcdStore : StoreAdapter
{
    /// <summary>Keys per range request: a page of the largest values stays under 200 MiB.</summary>
    private const int PageSize = 100;

    /// <summary>etcd's default <c>--max-txn-ops</c>: the most puts one transaction may carry.</summary>
    private const int MaxTransactionOperations = 128;

    /// <summary>Key and value bytes one transaction of PutMany carries before a new one starts, well under the request limit.</summary>
    private const int TransactionBytes = 1024 * 1024;

    private readonly EtcdClient _client;
    private readonly byte[] _valuePrefix;
    private readonly ByteString _valuesEnd;
    private readonly bool _serializable;

    public EtcdStore(StoreRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(row, options)
    {
        _serializable = (options as EtcdStoreOptions)?.SerializableReads ?? false;
        _valuePrefix = ValuePrefix(storeName);
        _valuesEnd = ByteString.CopyFrom(ByteKeys.PrefixUpperBound(_valuePrefix)!);
        ByteString marker = ByteString.CopyFromUtf8(Prefix(storeName) + "store");
        _client = Connect(endpoint);
        try
        {
            if (options.Access == StoreAccess.ReadWrite)
            {
                _client.Put(new PutRequest { Key = marker, Value = ByteString.Empty });
            }
            else if (_client.Get(new RangeRequest { Key = marker, CountOnly = true }).Count == 0)
            {
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }
        }
        catch
        {
            _client.Dispose();
            throw;
        }
    }

    /// <summary>One client over every member of <paramref name="endpoint"/>; gRPC spreads calls across them and skips a member that is down.</summary>
    internal static EtcdClient Connect(string endpoint)
    {
        string members = string.Join(',', EtcdEndpoints.Parse(endpoint).Select(member => member.GetLeftPart(UriPartial.Authority)));
        return new EtcdClient(members, configureChannelOptions: options =>
        {
            options.Credentials = ChannelCredentials.Insecure;

            // A page of large values is larger than gRPC's 4 MiB default for one answer.
            options.MaxReceiveMessageSize = null;
        });
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        _client.Put(new PutRequest { Key = ValueKey(key), Value = ByteString.CopyFrom(value) });

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        RangeResponse found = _client.Get(new RangeRequest { Key = ValueKey(key), Serializable = _serializable });
        if (found.Kvs.Count == 0)
        {
            return false;
        }

        CopyTo(found.Kvs[0].Value.Span, destination);
        return true;
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        RangeResponse found = _client.Get(new RangeRequest { Key = ValueKey(key), Serializable = _serializable });
        return found.Kvs.Count == 0 ? null : found.Kvs[0].Value.ToByteArray();
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) =>
        _client.Get(new RangeRequest { Key = ValueKey(key), CountOnly = true, Serializable = _serializable }).Count > 0;

    protected override bool DeleteCore(ReadOnlySpan<byte> key) =>
        _client.Delete(new DeleteRangeRequest { Key = ValueKey(key) }).Deleted > 0;

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadRange);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadRange);

    /// <summary>
    /// Transactions of puts, each committed (and synced) once, as many as <c>--max-txn-ops</c> and the request size
    /// need. etcd refuses a transaction that names a key twice, so a key given twice is written once with its last value.
    /// </summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        var last = new Dictionary<string, int>(items.Count, StringComparer.Ordinal);
        for (int i = 0; i < items.Count; i++)
        {
            last[Convert.ToBase64String(items[i].Key)] = i;
        }

        var transaction = new TxnRequest();
        long bytes = 0;
        foreach (int index in last.Values.Order())
        {
            KeyValuePair<byte[], byte[]> item = items[index];
            long itemBytes = item.Key.Length + item.Value.Length;
            if (transaction.Success.Count == MaxTransactionOperations || (transaction.Success.Count > 0 && bytes + itemBytes > TransactionBytes))
            {
                _client.Transaction(transaction);
                transaction = new TxnRequest();
                bytes = 0;
            }

            transaction.Success.Add(new RequestOp { RequestPut = new PutRequest { Key = ValueKey(item.Key), Value = ByteString.CopyFrom(item.Value) } });
            bytes += itemBytes;
        }

        if (transaction.Success.Count > 0)
        {
            _client.Transaction(transaction);
        }
    }

    /// <summary>Nothing to do: a write is acknowledged once a majority of members has committed and synced it.</summary>
    protected override void FlushCore()
    {
    }

    protected override void DisposeCore() => _client.Dispose();

    /// <summary>Reads keys lower ≤ key &lt; upper (to the end of the store's keys when <paramref name="upper"/> is null) with one range request.</summary>
    private bool ReadRange(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        RangeResponse range = _client.Get(new RangeRequest
        {
            Key = ValueKey(lower),
            RangeEnd = upper is null ? _valuesEnd : ValueKey(upper),
            Limit = Math.Min(maxEntries, PageSize),
            Serializable = _serializable,
        });
        foreach (Mvccpb.KeyValue entry in range.Kvs)
        {
            page.Add(new(entry.Key.Span[_valuePrefix.Length..].ToArray(), entry.Value.ToByteArray()));
        }

        return range.More;
    }

    /// <summary>The prefix of the keys under which the store <paramref name="storeName"/> keeps its values.</summary>
    internal static byte[] ValuePrefix(string storeName) => Encoding.UTF8.GetBytes(Prefix(storeName) + "v/");

    /// <summary>The key under which the value of <paramref name="key"/> is kept: <paramref name="valuePrefix"/>, then the key's bytes.</summary>
    internal static ByteString ValueKey(byte[] valuePrefix, ReadOnlySpan<byte> key)
    {
        byte[] valueKey = new byte[valuePrefix.Length + key.Length];
        valuePrefix.CopyTo(valueKey, 0);
        key.CopyTo(valueKey.AsSpan(valuePrefix.Length));
        return UnsafeByteOperations.UnsafeWrap(valueKey);
    }

    private static string Prefix(string storeName) => $"kvbench/{storeName}/";

    private ByteString ValueKey(ReadOnlySpan<byte> key) => ValueKey(_valuePrefix, key);
}
