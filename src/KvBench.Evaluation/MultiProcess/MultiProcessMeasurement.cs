using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What a two-process check found for one store: the level it measured, and the evidence.</summary>
/// <param name="Store">The row name.</param>
/// <param name="Declared">The level the adapter claims.</param>
/// <param name="Measured">
/// The level the two processes showed, or <see langword="null"/> when what they showed fits no level (writes lost,
/// wrong bytes read, an unexpected error, a lock found too slowly).
/// </param>
/// <param name="First">The first process ("cli"), which opened the store to read and write and held it throughout.</param>
/// <param name="Others">The second process's attempts ("ui"), in order: to read and write, then read-only, then as a secondary.</param>
/// <param name="Verified">Per writing worker, its acknowledged records read back after every process had ended.</param>
/// <param name="Evidence">Why the measured level is what it is, one finding a line.</param>
public sealed record MultiProcessMeasurement(
    string Store,
    MultiProcessLevel Declared,
    MultiProcessLevel? Measured,
    WorkerRun First,
    IReadOnlyList<WorkerRun> Others,
    IReadOnlyDictionary<string, VerificationResult> Verified,
    IReadOnlyList<string> Evidence)
{
    /// <summary>Whether the measurement confirms the adapter's claim.</summary>
    public bool MatchesDeclared => Measured == Declared;

    /// <summary>A report: the levels, the evidence, and every process's line.</summary>
    public override string ToString() => string.Join(
        Environment.NewLine,
        [
            $"{Store}: declared {Declared}, measured {Measured?.ToString() ?? "no level"}",
            .. Evidence.Select(line => "  " + line),
            "  " + First,
            .. Others.Select(run => "  " + run),
            .. Verified.Select(entry => $"  {entry.Key}'s acknowledged records read back: {entry.Value}"),
        ]);
}
