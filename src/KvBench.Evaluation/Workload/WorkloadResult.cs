using System.Text.Json.Serialization;

namespace KvBench.Evaluation.Workload;

/// <summary>One operation type's share of a run.</summary>
/// <param name="Type">The operation.</param>
/// <param name="OperationsPerSecond">Completed operations of this type per second of the measured window.</param>
/// <param name="Latency">Its latency percentiles, in nanoseconds.</param>
public sealed record OperationResult(OperationType Type, double OperationsPerSecond, LatencySummary Latency);

/// <summary>One interval of a run over time: what every operation type together did in it.</summary>
/// <param name="StartSeconds">Where the interval starts, in seconds from the start of the measured window.</param>
/// <param name="Seconds">How long it is: the run's <see cref="RunSettings.TimelineInterval"/>, shorter for the last.</param>
/// <param name="OperationsPerSecond">Operations completed in it (scheduled in it, for an open loop) per second.</param>
/// <param name="P99">The 99th percentile latency of those operations, in nanoseconds; 0 when none completed.</param>
public sealed record TimelinePoint(double StartSeconds, double Seconds, double OperationsPerSecond, double P99);

/// <summary>What a workload run measured.</summary>
public sealed record WorkloadResult
{
    /// <summary>The store's row name.</summary>
    public required string Store { get; init; }

    /// <summary>The workload.</summary>
    public required WorkloadSpec Workload { get; init; }

    /// <summary>How it was driven.</summary>
    public required RunSettings Settings { get; init; }

    /// <summary>The measured window's real length.</summary>
    public required TimeSpan Elapsed { get; init; }

    /// <summary>Every operation type that ran, in <see cref="OperationType"/> order.</summary>
    public required IReadOnlyList<OperationResult> Operations { get; init; }

    /// <summary>When the measured window began, on the wall clock; <see langword="null"/> for a result made elsewhere.</summary>
    public DateTimeOffset? WindowStartUtc { get; init; }

    /// <summary>Throughput and p99 per interval of the measured window, in order; empty for a result made elsewhere.</summary>
    public IReadOnlyList<TimelinePoint> Timeline { get; init; } = [];

    /// <summary>
    /// Each interval's latencies per operation type, in <see cref="Timeline"/>'s order, when the run kept them
    /// (<see cref="RunSettings.KeepIntervalHistograms"/>) for an interval log; not part of the results file.
    /// </summary>
    [JsonIgnore]
    public IReadOnlyList<IReadOnlyDictionary<OperationType, LatencyHistogram>>? IntervalHistograms { get; init; }

    /// <summary>What the process spent over the measured window (CPU time, system calls), or <see langword="null"/> for a result made elsewhere.</summary>
    public ProcessCost? Cost { get; init; }

    /// <summary>CPU microseconds (user and system) per operation of the measured window, or <see langword="null"/> when not measured.</summary>
    public double? CpuMicrosecondsPerOperation => Cost?.CpuMicrosecondsPerOperation(OperationsPerSecond);

    /// <summary>System calls per operation of the measured window, or <see langword="null"/> when not counted.</summary>
    public double? SystemCallsPerOperation => Cost?.SystemCallsPerOperation(OperationsPerSecond);

    /// <summary>Reads (including each record of a scan) that returned bytes no writer wrote for that key, or no record where one must be.</summary>
    public long WrongReads { get; init; }

    /// <summary>Reads checked, in the measured window and the warm-up.</summary>
    public long CheckedReads { get; init; }

    /// <summary>Operations that threw, with the first error's message.</summary>
    public long Errors { get; init; }

    /// <summary>The first error, as "Type: message", or <see langword="null"/>.</summary>
    public string? FirstError { get; init; }

    /// <summary>
    /// What the first wrong read returned (the record, and nothing, a version no writer had issued, or bytes of no
    /// version), or <see langword="null"/>.
    /// </summary>
    public string? FirstWrongRead { get; init; }

    /// <summary>All operations per second.</summary>
    public double OperationsPerSecond => Operations.Sum(operation => operation.OperationsPerSecond);

    /// <summary>Whether every operation succeeded and every read was right: a run that is not is no result.</summary>
    public bool Succeeded => WrongReads == 0 && Errors == 0;

    /// <summary>What went wrong, in one line, or <see langword="null"/> when the run <see cref="Succeeded"/>.</summary>
    public string? Failure => Succeeded
        ? null
        : string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"{Store} {Workload.Name} x{Settings.Threads}: {WrongReads:N0} wrong reads of {CheckedReads:N0}, " +
                $"{Errors:N0} errors" +
                $"{(FirstWrongRead is null ? string.Empty : $" (first wrong read: {FirstWrongRead})")}" +
                $"{(FirstError is null ? string.Empty : $" (first error: {FirstError})")}.");

    /// <summary>The result of <paramref name="type"/>, or <see langword="null"/> when the workload has none.</summary>
    public OperationResult? Of(OperationType type) => Operations.FirstOrDefault(operation => operation.Type == type);
}
