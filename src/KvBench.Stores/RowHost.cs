namespace KvBench.Stores;

/// <summary>
/// What a row needs running while a suite uses it: nothing (<see cref="None"/>, a store in the caller's process), a server
/// process (<see cref="ProcessRowHost"/>), or several (<see cref="RowHostGroup"/>, a cluster). A suite starts it once
/// before its first case, shares it across its cases, and disposes it after its last, also when the suite fails.
/// </summary>
public abstract class RowHost : IAsyncDisposable
{
    /// <summary>Nothing to run: starting and stopping do nothing.</summary>
    public static RowHost None { get; } = new NoRowHost();

    /// <summary>
    /// How to reach what this host started, as environment variables (an endpoint, a socket path): filled once
    /// <see cref="StartAsync"/> has returned, empty again once disposed, and always empty for a host that runs nothing.
    /// <see cref="RowHostGroup"/> sets them in this process's environment while it runs, so the processes started
    /// meanwhile (BenchmarkDotNet's process per case, KvBench's worker processes) inherit them and find the server.
    /// </summary>
    public virtual IReadOnlyDictionary<string, string> Published => NothingPublished;

    /// <summary>No variables.</summary>
    private protected static IReadOnlyDictionary<string, string> NothingPublished { get; } = new Dictionary<string, string>();

    /// <summary>
    /// Starts what the row needs and returns once it is ready to serve. A start that fails stops what it started before
    /// it throws. Called at most once.
    /// </summary>
    /// <exception cref="Core.StoreUnavailableException">What the row needs did not start or did not become ready in time.</exception>
    public abstract Task StartAsync(CancellationToken cancellationToken = default);

    /// <summary>Stops what <see cref="StartAsync"/> started and waits until it is gone; does nothing when nothing runs.</summary>
    public abstract ValueTask DisposeAsync();

    private sealed class NoRowHost : RowHost
    {
        public override Task StartAsync(CancellationToken cancellationToken = default) => Task.CompletedTask;

        public override ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
