namespace KvBench.Stores.Redis;

/// <summary><c>Redis_raw</c>: StackExchange.Redis used directly on the Redis row's server.</summary>
internal sealed class RedisRaw(string directory) : RespRawTarget(RedisRow.RowName, directory);
