namespace KvBench.Tests.Servers;

/// <summary>
/// Runs its classes alone, after the classes that run in parallel. dqlite has one write lock per database, which every
/// store on the shared cluster shares: a class that holds it long (<c>DqliteBatchTests</c>: batches of about 0.1 s) makes
/// writers beside it wait, and a class that writes through a raw client that retries no busy write, as a raw client
/// would not (<c>ServerPointTargetTests</c>), fails beside any dqlite writer: "database is locked" in a CI run. And a
/// class that counts a server's flushes (<c>ServerDeviceFlushTests</c>) counts every other class's writes to it too:
/// in a clean-clone CI of 2026-11-27 the Buffered dqlite cluster, which syncs every Raft append on each of its three
/// nodes, made 12 to 33 flushes in each of the ten idle windows of 0.5 s the test waits for it to settle, where in the
/// clean-clone CIs before it settled; the likely writers are the classes running beside it on the same cluster.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AloneOnTheServersCollection
{
    public const string Name = "Alone on the shared servers";
}
