using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks.Targets.Raw.Servers;

/// <summary><c>Garnet_raw</c>: StackExchange.Redis used directly on the Garnet row's server.</summary>
[PointVariant(StoreNames.Garnet, RowVariantKind.Raw, ManyThreads = true)]
internal sealed class GarnetRaw(string directory) : RespRawTarget(StoreNames.Garnet, directory);
