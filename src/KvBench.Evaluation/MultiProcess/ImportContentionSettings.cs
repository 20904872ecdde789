using System.Text.Json.Serialization;

using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// How an import-contention run drives its two processes: the "ui" (a few threads of point reads and small writes at
/// a fixed rate, open loop) and the "cli" (a bulk import in batches at full speed). The presets keep the default
/// evaluation within its time; <c>kvbench contend</c> takes every field as an option.
/// </summary>
public sealed record ImportContentionSettings
{
    /// <summary>Threads of the ui's workload.</summary>
    public int UiThreads { get; init; } = 4;

    /// <summary>The ui's operations per second, all threads together: a fixed schedule, so a stall shows as latency.</summary>
    public double UiOperationsPerSecond { get; init; } = 2_000;

    /// <summary>Records loaded before the ui starts; the ui reads and updates these.</summary>
    public long UiRecords { get; init; } = 10_000;

    /// <summary>The share of the ui's operations that update a record (the rest read one); 0 for a ui that cannot write.</summary>
    public double UiWriteShare { get; init; } = 0.1;

    /// <summary>Records per PutMany of the cli's import.</summary>
    public int BatchSize { get; init; } = 1_000;

    /// <summary>How long each ui phase runs before anything is recorded; the cli imports through it too.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How long each ui phase is measured: first alone, then while the cli imports.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// The pause between two looks of the ui for the cli's next batch: the visibility lag is known to within it (plus
    /// one read). Shorter costs the ui's machine a thread that wakes more often.
    /// </summary>
    public TimeSpan PollInterval { get; init; } = TimeSpan.FromMilliseconds(1);

    /// <summary>How long the ui keeps looking for the cli's last batches after the import ended, before it calls them unseen.</summary>
    public TimeSpan VisibilityDeadline { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long the cli imports: through the ui's warm-up and its measured phase.</summary>
    [JsonIgnore]
    public TimeSpan ImportDuration => Warmup + Duration;

    /// <summary>
    /// The default evaluation's: 2,000 records, 0.3 s of warm-up and 1.5 s measured per phase, so a row costs about
    /// 5 s (two phases, two process starts, the load and the read-back): a screen; <c>kvbench contend</c> measures 5 s
    /// per phase. Fewer records than the command's because FileSystem's row creates (and the run deletes) a file per
    /// record, at a cost per record far above any other row's.
    /// </summary>
    public static ImportContentionSettings Evaluation { get; } = new()
    {
        UiRecords = 2_000,
        Warmup = TimeSpan.FromMilliseconds(300),
        Duration = TimeSpan.FromSeconds(1.5),
    };

    /// <summary>About a second per phase on a few thousand records: for tests.</summary>
    public static ImportContentionSettings Smoke { get; } = new()
    {
        UiRecords = 2_000,
        UiOperationsPerSecond = 1_000,
        Warmup = TimeSpan.FromMilliseconds(200),
        Duration = TimeSpan.FromMilliseconds(800),
    };

    /// <summary>The ui's workload: uniform point reads and, when it may write, updates of its own records.</summary>
    public WorkloadSpec UiWorkload(bool writes) => new()
    {
        Name = "ui",
        Mix = writes ? new OperationMix(Read: 1 - UiWriteShare, Update: UiWriteShare) : OperationMix.ReadOnly,
        Distribution = KeyDistribution.Uniform,
        RecordCount = UiRecords,
    };

    /// <summary>How each ui phase is driven.</summary>
    [JsonIgnore]
    public RunSettings UiRun => new() { Threads = UiThreads, Warmup = Warmup, Duration = Duration, TargetOperationsPerSecond = UiOperationsPerSecond };
}
