using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks.Targets.Raw.Servers;

/// <summary><c>Redis_raw</c>: StackExchange.Redis used directly on the Redis row's server.</summary>
[PointVariant(StoreNames.Redis, RowVariantKind.Raw, ManyThreads = true)]
internal sealed class RedisRaw(string directory) : RespRawTarget(StoreNames.Redis, directory);
