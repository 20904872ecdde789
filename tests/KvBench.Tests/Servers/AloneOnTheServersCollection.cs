namespace KvBench.Tests.Servers;

/// <summary>
/// Runs its classes alone, after the classes that run in parallel. dqlite has one write lock per database, which every
/// store on the shared cluster shares: a class that holds it long (<c>DqliteBatchTests</c>: batches of about 0.1 s) makes
/// writers beside it wait, and a class that writes through a raw client that retries no busy write, as a raw client
/// would not (<c>ServerPointTargetTests</c>), fails beside any dqlite writer: "database is locked" in a CI run.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AloneOnTheServersCollection
{
    public const string Name = "Alone on the shared servers";
}
