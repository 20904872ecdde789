using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// Where a server row's raw baseline works: the server and tier its adapter is measured at
/// (<see cref="StoreRow.MeasuredTier"/> at Buffered), found as the adapter finds it, and the store the adapter keeps for the same
/// directory, made by opening the adapter once (its table, key prefix and marker), so the raw calls read and write what
/// the adapter would and only the calls are the raw client's.
/// </summary>
internal sealed record ServerRawStore(string Endpoint, Durability Durability, string StoreName)
{
    /// <exception cref="StoreUnavailableException">No server runs for the row at its tier.</exception>
    public static ServerRawStore For(string rowName, string directory)
    {
        var row = (ServerRow)StoreCatalog.Row(rowName);
        Durability durability = row.MeasuredTier(Durability.Buffered);
        string endpoint = row.EndpointFor(durability)
            ?? throw new StoreUnavailableException(
                rowName,
                $"no server runs for it at {durability}: the benchmarks start KvBench's own, or {row.EndpointVariable} points at one");
        using (StoreCatalog.Open(rowName, new ServerStoreOptions { Directory = directory, Durability = durability, Endpoint = endpoint }))
        {
        }

        return new ServerRawStore(endpoint, durability, ServerStoreName.Of(directory));
    }
}
