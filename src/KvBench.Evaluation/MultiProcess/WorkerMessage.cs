using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>One JSON line a worker prints on standard output.</summary>
/// <param name="Event">One of <see cref="Ready"/>, <see cref="SawPeer"/> or <see cref="Finished"/>, or a phase of an import-contention run.</param>
/// <param name="Result">The <c>mp-worker</c>'s result, on <see cref="Finished"/> only.</param>
/// <param name="Clock">
/// The worker's <see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> when it printed the line: on <see cref="Ready"/> of
/// an import-contention worker, so its parent can check that both read one clock before it compares their timestamps.
/// </param>
/// <param name="Workload">What an import-contention "ui" worker's workload runner measured in the phase the event names.</param>
/// <param name="Ui">An import-contention "ui" worker's result, on <see cref="Finished"/>.</param>
/// <param name="Import">An import-contention "cli" worker's result, on <see cref="Finished"/>.</param>
public sealed record WorkerMessage(
    string Event,
    WorkerResult? Result = null,
    long? Clock = null,
    WorkloadResult? Workload = null,
    UiReport? Ui = null,
    ImportReport? Import = null)
{
    /// <summary>The store is open; a writing worker has also acknowledged its first record.</summary>
    public const string Ready = "ready";

    /// <summary>The worker saw the peer's first record with its exact bytes.</summary>
    public const string SawPeer = "saw-peer";

    /// <summary>The worker is done (or could not open the store); <see cref="Result"/> says what happened.</summary>
    public const string Finished = "result";
}
