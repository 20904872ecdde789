using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary><c>PING</c> through a StackExchange.Redis connection made as the Redis row makes its own.</summary>
internal sealed class RedisPing(string endpoint) : IServerPing
{
    private readonly ConnectionMultiplexer _connection = RedisStore.Connect(endpoint);

    public string Request => "PING";

    public void RoundTrip() => _connection.GetDatabase().Ping();

    public void Dispose() => _connection.Dispose();
}
