namespace KvBench.Evaluation.Workload;

/// <summary>How a workload is driven.</summary>
public sealed record RunSettings
{
    /// <summary>Threads issuing operations, each with its own random stream and histograms.</summary>
    public int Threads { get; init; } = 1;

    /// <summary>How long the threads run before anything is recorded: caches, JIT and the store's own structures settle.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How long operations are recorded, after the warm-up.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Operations per second across all threads for an open-loop run, or <see langword="null"/> for a closed loop (each
    /// thread issues its next operation when the last returns). In an open loop every operation has an intended start
    /// on a fixed schedule and its latency is measured from then, so a stall delays the operations queued behind it and
    /// shows in their latencies instead of silently lowering the rate (coordinated omission).
    /// </summary>
    public double? TargetOperationsPerSecond { get; init; }

    /// <summary>The first of the threads' random streams (thread t draws from stream + t), so a run picks the same keys each time.</summary>
    public int RandomStream { get; init; } = 20_261_122;

    /// <summary>
    /// The length of each point of the run over time (<see cref="WorkloadResult.Timeline"/>): throughput and p99 per
    /// interval of the measured window. Default: 1 s, fine enough to show a checkpoint, a compaction or a map growth. A run
    /// longer than 600 intervals widens them to a 600th of its window, which bounds the histograms each thread holds.
    /// </summary>
    public TimeSpan TimelineInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Whether the result keeps each interval's histograms (<see cref="WorkloadResult.IntervalHistograms"/>) for an
    /// interval log; off by default, since a long run's histograms take memory no table needs.
    /// </summary>
    public bool KeepIntervalHistograms { get; init; }
}
