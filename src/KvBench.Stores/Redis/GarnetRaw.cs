namespace KvBench.Stores.Redis;

/// <summary><c>Garnet_raw</c>: StackExchange.Redis used directly on the Garnet row's server.</summary>
internal sealed class GarnetRaw(string directory) : RespRawTarget(GarnetRow.RowName, directory);
