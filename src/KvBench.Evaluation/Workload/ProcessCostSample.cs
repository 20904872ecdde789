using System.Diagnostics;

namespace KvBench.Evaluation.Workload;

/// <summary>Reads the counters behind <see cref="ProcessCost"/> at the start and the end of a window.</summary>
internal readonly record struct ProcessCostSample(long Timestamp, TimeSpan User, TimeSpan System, long? SystemCalls, long AllocatedBytes)
{
    public static ProcessCostSample Take(SystemCallCounter? systemCalls)
    {
        Environment.ProcessCpuUsage usage = Environment.CpuUsage;
        // Precise: the imprecise count leaves out what each thread's allocation context holds, up to kilobytes a thread.
        return new ProcessCostSample(
            Stopwatch.GetTimestamp(), usage.UserTime, usage.PrivilegedTime, systemCalls?.Read(),
            GC.GetTotalAllocatedBytes(precise: true));
    }

    /// <summary>
    /// What was spent from this sample to <paramref name="end"/>: the process's CPU time between the two, split into
    /// user and system in the proportion of <paramref name="runThreads"/> when given (see <see cref="ProcessCost.SplitWindow"/>).
    /// </summary>
    public ProcessCost Until(ProcessCostSample end, string? systemCallsUnmeasured, CpuSplit? runThreads = null)
    {
        CpuSplit window = ProcessCost.SplitWindow(new CpuSplit((end.User - User).TotalSeconds, (end.System - System).TotalSeconds), runThreads);
        return new(
            Stopwatch.GetElapsedTime(Timestamp, end.Timestamp).TotalSeconds,
            window.UserSeconds,
            window.SystemSeconds,
            end.SystemCalls - SystemCalls,
            systemCallsUnmeasured,
            Environment.ProcessorCount)
        {
            SplitCpuSeconds = runThreads is { TotalSeconds: > 0 } threads ? threads.TotalSeconds : null,
            AllocatedBytes = end.AllocatedBytes - AllocatedBytes,
        };
    }
}
