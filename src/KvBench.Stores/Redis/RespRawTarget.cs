using System.Buffers;

using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// A Redis-protocol server's raw baseline: StackExchange.Redis on one multiplexer, the adapter's commands (a Put is
/// SET of the value and ZADD of the key to the store's index in one MULTI/EXEC, a Get GET, a HaveKey EXISTS) under the
/// same key prefix, without the contract around them.
/// </summary>
internal abstract class RespRawTarget : IPointTarget
{
    private readonly ConnectionMultiplexer _connection;
    private readonly IDatabase _database;
    private readonly byte[] _valuePrefix;
    private readonly RedisKey _index;

    protected RespRawTarget(string row, string directory)
    {
        ServerRawStore store = ServerRawStore.For(row, directory);
        (_valuePrefix, _index, _) = RedisStore.Keys(store.StoreName);
        _connection = ConnectionMultiplexer.Connect(store.Endpoint);
        _database = _connection.GetDatabase();
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        byte[] member = key.ToArray();
        ITransaction transaction = _database.CreateTransaction();
        _ = transaction.StringSetAsync(ValueKey(member), value.ToArray());
        _ = transaction.SortedSetAddAsync(_index, member, 0);
        if (!transaction.Execute())
        {
            throw new InvalidOperationException("The server discarded a MULTI/EXEC without a WATCH.");
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using Lease<byte>? value = _database.StringGetLease(ValueKey(key));
        if (value is null)
        {
            return false;
        }

        destination.Write(value.Span);
        return true;
    }

    public byte[]? Get(ReadOnlySpan<byte> key) => _database.StringGet(ValueKey(key));

    public bool ContainsKey(ReadOnlySpan<byte> key) => _database.KeyExists(ValueKey(key));

    public void Dispose() => _connection.Dispose();

    private RedisKey ValueKey(ReadOnlySpan<byte> key) => RedisStore.ValueKey(_valuePrefix, key);
}
