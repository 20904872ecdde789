using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>Two processes that wrote to one store as fast as it let them, and what was read back afterwards.</summary>
/// <param name="Store">The row name.</param>
/// <param name="Duration">How long both wrote at once.</param>
/// <param name="First">The first writer.</param>
/// <param name="Second">The second writer.</param>
/// <param name="Verified">Per worker, its acknowledged records read back after both had ended.</param>
public sealed record ContentionResult(
    string Store, TimeSpan Duration, WorkerRun First, WorkerRun Second, IReadOnlyDictionary<string,
    VerificationResult> Verified)
{
    /// <summary>Whether both ended cleanly, no store call threw, and every acknowledged write is there with its bytes.</summary>
    public bool LostNothing =>
        MultiProcessProbe.EndedCleanly(First) && MultiProcessProbe.EndedCleanly(Second) && Verified.Values.All(result => result.Ok);

    /// <summary>A report line per writer.</summary>
    public override string ToString() => string.Join(
        Environment.NewLine,
        [
            $"{Store}: two writers for {Duration.TotalSeconds:0.#} s",
            "  " + First,
            "  " + Second,
            .. Verified.Select(entry => $"  {entry.Key}'s acknowledged records read back: {entry.Value}"),
        ]);
}
