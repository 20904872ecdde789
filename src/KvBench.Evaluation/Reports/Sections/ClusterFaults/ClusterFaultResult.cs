
namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>The latency of the operations due in one phase of a cluster fault: from when each was due until it returned or failed.</summary>
/// <param name="Operations">Operations due in the phase.</param>
/// <param name="Failed">Of those, how many failed.</param>
/// <param name="P99Milliseconds">The 99th percentile, in milliseconds (0 without operations).</param>
/// <param name="MaxMilliseconds">The longest, in milliseconds.</param>
public sealed record FaultPhaseLatency(int Operations, int Failed, double P99Milliseconds, double MaxMilliseconds);

/// <summary>What one cluster fault under load showed (<see cref="ClusterFault"/>).</summary>
/// <param name="Row">The cluster row.</param>
/// <param name="Settings">How it was run.</param>
/// <param name="Member">The index of the member faulted.</param>
/// <param name="LeaderAfter">The index of the member that led once the run was over.</param>
/// <param name="WritesAcknowledged">Updates the cluster acknowledged.</param>
/// <param name="LostAfterRun">
/// Keys whose value, read once the member was back and a leader elected, was older than the last write acknowledged for
/// it: 0 for a cluster that keeps its promise.
/// </param>
/// <param name="Reads">Reads that returned.</param>
/// <param name="StaleReads">Reads that returned a value older than a write acknowledged before the read was sent.</param>
/// <param name="Errors">The errors the client saw, by kind, with how often.</param>
/// <param name="LongestStallSeconds">
/// The longest time, from the fault on, without an acknowledged update (from the fault to the first, or between two):
/// how long updates stopped; <see langword="null"/> when none was acknowledged after the fault.
/// </param>
/// <param name="Before">Latency of the operations that returned before the fault.</param>
/// <param name="During">
/// Latency of the operations still out when the fault began or due while the member was faulted: a call sent to a
/// member just before it was paused waits with it.
/// </param>
/// <param name="After">Latency of the operations due after it was back.</param>
public sealed record ClusterFaultResult(
    string Row,
    ClusterFaultSettings Settings,
    int Member,
    int? LeaderAfter,
    int WritesAcknowledged,
    int LostAfterRun,
    int Reads,
    int StaleReads,
    IReadOnlyDictionary<string, int> Errors,
    double? LongestStallSeconds,
    FaultPhaseLatency Before,
    FaultPhaseLatency During,
    FaultPhaseLatency After);
