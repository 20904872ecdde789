namespace KvBench.Evaluation.MultiProcess;

/// <summary>One JSON line a worker prints on standard output.</summary>
/// <param name="Event">One of <see cref="Ready"/>, <see cref="SawPeer"/> or <see cref="Finished"/>.</param>
/// <param name="Result">The worker's result, on <see cref="Finished"/> only.</param>
public sealed record WorkerMessage(string Event, WorkerResult? Result = null)
{
    /// <summary>The store is open; a writing worker has also acknowledged its first record.</summary>
    public const string Ready = "ready";

    /// <summary>The worker saw the peer's first record with its exact bytes.</summary>
    public const string SawPeer = "saw-peer";

    /// <summary>The worker is done (or could not open the store); <see cref="Result"/> says what happened.</summary>
    public const string Finished = "result";
}
