using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>A profile's workload as the workload runner and the writer-beside-reader scenario take it.</summary>
public static class ProfileWorkloads
{
    /// <summary>The workload spec the measured process runs.</summary>
    public static WorkloadSpec ToSpec(this ProfileWorkload workload, string name)
    {
        ArgumentNullException.ThrowIfNull(workload);
        return new WorkloadSpec
        {
            Name = name,
            Mix = workload.Mix,
            Distribution = workload.Popularity,
            ZipfianConstant = workload.ZipfianConstant,
            RecordCount = workload.Records,
            KeyBytes = workload.KeyBytes,
            KeyShape = workload.KeyShape,
            ValueLength = workload.ValueBytes,
            MaxScanLength = workload.ScanLength,
        };
    }

    /// <summary>How the measured process's threads are driven in one round.</summary>
    public static RunSettings ToRun(this ProfileWorkload workload, DecisionSettings settings, int round)
    {
        ArgumentNullException.ThrowIfNull(workload);
        ArgumentNullException.ThrowIfNull(settings);
        return new RunSettings
        {
            Threads = workload.Threads,
            Warmup = settings.Warmup,
            Duration = settings.Duration,
            TargetOperationsPerSecond = workload.Rate,
            RandomStream = new RunSettings().RandomStream + (1_000 * round),
        };
    }

    /// <summary>The share of operations that write (updates, inserts, deletes, read-modify-writes).</summary>
    public static double WriteShare(this OperationMix mix)
    {
        ArgumentNullException.ThrowIfNull(mix);
        double total = Enum.GetValues<OperationType>().Sum(mix.Of);
        return total <= 0 ? 0 : (mix.Update + mix.Insert + mix.Delete + mix.ReadModifyWrite) / total;
    }

    /// <summary>
    /// The writer-beside-reader scenario for the profile: the reader process ("ui") runs the profile's threads at its rate
    /// (2,000 operations a second when it states none, as a UI does not run flat out), reading and updating in the
    /// profile's write share; the writer process ("cli") imports in batches at full speed beside it.
    /// </summary>
    public static ImportContentionSettings ToContention(this ProfileWorkload workload, DecisionSettings settings)
    {
        ArgumentNullException.ThrowIfNull(workload);
        ArgumentNullException.ThrowIfNull(settings);
        return new ImportContentionSettings
        {
            UiThreads = workload.Threads,
            UiOperationsPerSecond = workload.Rate ?? new ImportContentionSettings().UiOperationsPerSecond,
            UiRecords = Math.Min(workload.Records, settings.ContentionRecords),
            UiWriteShare = workload.Mix.WriteShare(),
            Warmup = TimeSpan.FromMilliseconds(300),
            Duration = settings.ContentionDuration,
        };
    }
}
