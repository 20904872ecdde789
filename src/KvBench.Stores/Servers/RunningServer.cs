using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// What KvBench runs for a server row at one set of tiers: one server process (<see cref="ServerInstance"/>), or a
/// cluster of several (etcd's three members). Started, it serves at <see cref="Endpoint"/>; disposed, every process it
/// started is gone and its data deleted.
/// </summary>
internal abstract class RunningServer : RowHost
{
    /// <summary>The durability tiers this server is set up for.</summary>
    public abstract DurabilityTiers Tiers { get; }

    /// <summary>Where a client reaches it once started: <c>127.0.0.1:port</c>, or a comma-separated list of a cluster's members.</summary>
    public abstract string? Endpoint { get; }

    /// <summary>The folder that holds everything it writes (a cluster's members each in a folder of their own below it), while it runs.</summary>
    public abstract string? DataDirectory { get; }

    /// <summary>The process ids of its server processes while they run (a cluster's members in member order), else empty.</summary>
    public abstract IReadOnlyList<int> ProcessIds { get; }
}
