
namespace KvBench.Tests.Stores.Servers;

/// <summary>
/// Runs its classes alone, after the classes that run in parallel. dqlite has one write lock per database, which every
/// store on the shared cluster shares: a class that holds it long (<c>DqliteBatchTests</c>: large batches) makes
/// writers beside it wait, and a class that writes through a raw client that retries no busy write, as a raw client
/// would not (<c>ServerPointTargetTests</c>), fails beside any dqlite writer: "database is locked" in a CI run. And a
/// class that counts a server's flushes (<c>ServerDeviceFlushTests</c>) counts every other class's writes to it too:
/// the Buffered dqlite cluster syncs every Raft append on each of its three nodes, so a writer beside the test keeps it
/// from ever seeing the idle window it waits for before counting.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AloneOnTheServersCollection
{
    public const string Name = "Alone on the shared servers";
}
