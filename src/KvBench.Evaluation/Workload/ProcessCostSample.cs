using System.Diagnostics;

namespace KvBench.Evaluation.Workload;

/// <summary>Reads the counters behind <see cref="ProcessCost"/> at the start and the end of a window.</summary>
internal readonly record struct ProcessCostSample(long Timestamp, TimeSpan User, TimeSpan System, long? SystemCalls)
{
    public static ProcessCostSample Take(SystemCallCounter? systemCalls)
    {
        Environment.ProcessCpuUsage usage = Environment.CpuUsage;
        return new ProcessCostSample(Stopwatch.GetTimestamp(), usage.UserTime, usage.PrivilegedTime, systemCalls?.Read());
    }

    /// <summary>What was spent from this sample to <paramref name="end"/>.</summary>
    public ProcessCost Until(ProcessCostSample end, string? systemCallsUnmeasured) => new(
        Stopwatch.GetElapsedTime(Timestamp, end.Timestamp).TotalSeconds,
        (end.User - User).TotalSeconds,
        (end.System - System).TotalSeconds,
        end.SystemCalls - SystemCalls,
        systemCallsUnmeasured,
        Environment.ProcessorCount);
}
