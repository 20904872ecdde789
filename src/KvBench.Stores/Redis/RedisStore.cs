using System.Buffers;
using System.Text;

using KvBench.Core;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// A store on a server that speaks Redis' protocol (Redis, Garnet; <see cref="RespServerRow"/>): each value a string
/// under the store's key prefix, and each key a member of one sorted set
/// (all scores 0, so members sort by their bytes) that ordered scans seek with ZRANGEBYLEX. A write changes value and
/// index in one MULTI/EXEC, which Redis applies and appends to its file as one. The store's keys share a hash tag, so a
/// Redis Cluster keeps them on one node, as a transaction needs.
/// </summary>
internal sealed class RedisStore : StoreAdapter
{
    /// <summary>Keys per ZRANGEBYLEX page, and values per MGET: a page is two round trips.</summary>
    private const int PageSize = 1000;

    private readonly ConnectionMultiplexer _connection;
    private readonly IDatabase _database;
    private readonly byte[] _valuePrefix;
    private readonly RedisKey _index;

    public RedisStore(RespServerRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(row, options)
    {
        (_valuePrefix, _index, RedisKey marker) = Keys(storeName);
        _connection = Connect(endpoint);
        try
        {
            _database = _connection.GetDatabase();
            CheckDurability(row, options.Durability);

            // The marker says the store exists even while it holds no key, so a reader can tell "empty" from "never made".
            if (options.Access == StoreAccess.ReadWrite)
            {
                _database.StringSet(marker, 1);
            }
            else if (!_database.KeyExists(marker))
            {
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }
        }
        catch
        {
            _connection.Dispose();
            throw;
        }
    }

    /// <summary>A connection to <paramref name="endpoint"/> (<c>host:port</c> or a StackExchange.Redis configuration string).</summary>
    internal static ConnectionMultiplexer Connect(string endpoint)
    {
        ConfigurationOptions configuration = ConfigurationOptions.Parse(endpoint);

        // CONFIG GET reads the server's durability settings back, which StackExchange.Redis treats as an admin command.
        configuration.AllowAdmin = true;
        configuration.AbortOnConnectFail = true;

        // A server that went away fails the calls made meanwhile at once, instead of holding them for the timeout below
        // and sending them to whatever listens on the port once it reconnects.
        configuration.BacklogPolicy = BacklogPolicy.FailFast;

        // A server that comes back on the same port is reconnected to within a quarter of a second. The library's
        // default, an exponential backoff, can leave a client of a Redis that was killed and restarted without a
        // connection for many times the outage: a fault table would have measured the backoff.
        configuration.ReconnectRetryPolicy = new LinearRetry(250);

        // A value of hundreds of MiB takes longer to send than the 5 s default allows on a busy machine.
        configuration.SyncTimeout = (int)TimeSpan.FromMinutes(2).TotalMilliseconds;
        configuration.AsyncTimeout = configuration.SyncTimeout;
        return ConnectionMultiplexer.Connect(configuration);
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        byte[] member = key.ToArray();
        ITransaction transaction = _database.CreateTransaction();
        _ = transaction.StringSetAsync(ValueKey(member), value.ToArray());
        _ = transaction.SortedSetAddAsync(_index, member, 0);
        Execute(transaction);
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using Lease<byte>? value = _database.StringGetLease(ValueKey(key));
        if (value is null)
        {
            return false;
        }

        CopyTo(value.Span, destination);
        return true;
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) => Bytes(_database.StringGet(ValueKey(key)));

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => _database.KeyExists(ValueKey(key));

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        byte[] member = key.ToArray();
        ITransaction transaction = _database.CreateTransaction();
        Task<bool> deleted = transaction.KeyDeleteAsync(ValueKey(member));
        _ = transaction.SortedSetRemoveAsync(_index, member);
        Execute(transaction);
        return deleted.GetAwaiter().GetResult();
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadRange);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadRange);

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        ITransaction transaction = _database.CreateTransaction();
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            _ = transaction.StringSetAsync(ValueKey(item.Key), item.Value);
        }

        _ = transaction.SortedSetAddAsync(_index, [.. items.Select(item => new SortedSetEntry(item.Key, 0))]);
        Execute(transaction);
    }

    /// <summary>
    /// Nothing to do: the server appends every write to its file before it replies (in the OS cache, which is Buffered),
    /// and at <c>appendfsync always</c> flushes it first too (Synced).
    /// </summary>
    protected override void FlushCore()
    {
    }

    protected override void DisposeCore() => _connection.Dispose();

    private static void Execute(ITransaction transaction)
    {
        // Without conditions a transaction is never refused; a failed command throws from Execute.
        if (!transaction.Execute())
        {
            throw new RedisException("Redis refused a transaction that had no conditions.");
        }
    }

    private static byte[]? Bytes(RedisValue value) => value.IsNull ? null : (byte[]?)value ?? [];

    /// <summary>
    /// Reads keys lower ≤ key &lt; upper from the index and their values with one MGET. A key deleted between the two
    /// reads has no value any more and is left out; a page whose every key was deleted so is read again from after it.
    /// </summary>
    private bool ReadRange(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int take = Math.Min(maxEntries, PageSize);
        RedisValue min = lower;
        while (true)
        {
            RedisValue[] keys = _database.SortedSetRangeByValue(
                _index, min, upper is null ? default : (RedisValue)upper, upper is null ? Exclude.None : Exclude.Stop, Order.Ascending, 0, take);
            if (keys.Length == 0)
            {
                return false;
            }

            RedisValue[] values = _database.StringGet([.. keys.Select(key => ValueKey((byte[])key!))]);
            for (int i = 0; i < keys.Length; i++)
            {
                if (Bytes(values[i]) is { } value)
                {
                    page.Add(new((byte[])keys[i]!, value));
                }
            }

            if (page.Count > 0 || keys.Length < take)
            {
                return keys.Length == take;
            }

            // Every key of the page was deleted meanwhile: the next read starts just after its last key.
            min = (byte[])[.. (byte[])keys[^1]!, 0];
        }
    }

    /// <summary>
    /// The store <paramref name="storeName"/>'s keys: the prefix of its values' keys, its index and its marker, all
    /// sharing one hash tag.
    /// </summary>
    internal static (byte[] ValuePrefix, RedisKey Index, RedisKey Marker) Keys(string storeName)
    {
        string prefix = $"kvbench:{{{storeName}}}:";
        return (Encoding.UTF8.GetBytes(prefix + "v:"), prefix + "index", prefix + "store");
    }

    /// <summary>The key under which the value of <paramref name="key"/> is kept: <paramref name="valuePrefix"/>, then the key's bytes.</summary>
    internal static RedisKey ValueKey(byte[] valuePrefix, ReadOnlySpan<byte> key)
    {
        byte[] valueKey = new byte[valuePrefix.Length + key.Length];
        valuePrefix.CopyTo(valueKey, 0);
        key.CopyTo(valueKey.AsSpan(valuePrefix.Length));
        return valueKey;
    }

    private RedisKey ValueKey(ReadOnlySpan<byte> key) => ValueKey(_valuePrefix, key);

    /// <summary>
    /// Refuses a tier the server is not at: the server's setting holds for every client, so the store cannot set it for
    /// itself. KvBench's own servers are started at the tier they serve; a user's is read back here.
    /// </summary>
    private void CheckDurability(RespServerRow row, Durability durability)
    {
        DurabilityTiers offered = row.OfferedBy(_connection.GetServer(_connection.GetEndPoints()[0]));
        if (!offered.Offers(durability))
        {
            throw new DurabilityNotOfferedException(row.Name, durability, offered);
        }
    }
}
