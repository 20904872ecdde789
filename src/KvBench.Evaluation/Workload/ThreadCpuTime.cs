using System.Runtime.InteropServices;

namespace KvBench.Evaluation.Workload;

/// <summary>User and system CPU time of one thread or several, as the kernel reports them.</summary>
/// <param name="UserSeconds">CPU time in user mode.</param>
/// <param name="SystemSeconds">CPU time in the kernel.</param>
public readonly record struct CpuSplit(double UserSeconds, double SystemSeconds)
{
    /// <summary>User plus system.</summary>
    public double TotalSeconds => UserSeconds + SystemSeconds;

    /// <summary>The two added up.</summary>
    public static CpuSplit operator +(CpuSplit left, CpuSplit right) => new(left.UserSeconds + right.UserSeconds, left.SystemSeconds + right.SystemSeconds);

    /// <summary>The two added up (the operator's named form).</summary>
    public static CpuSplit Add(CpuSplit left, CpuSplit right) => left + right;
}

/// <summary>
/// The calling thread's CPU time over its whole life, split into user and system: <c>getrusage(RUSAGE_THREAD)</c>.
/// </summary>
/// <remarks>
/// Linux knows a thread's CPU time exactly, but splits it into user and system only by the mode each timer tick found
/// the thread in, and reports the split as that ratio of ticks applied to the exact time, never letting either part
/// fall below what it reported before (<c>cputime_adjust</c>, with tick-based accounting). A process's split is that
/// of its whole life, so the difference of two readings of the process over a short window can put the window's CPU
/// time all on one side, whichever the ratio of the process's earlier life leans to. A thread read once, at the end of
/// its life, has its own ticks' ratio and nothing earlier to hold it back: a run's workers, started for the run, read
/// themselves so as they finish.
/// </remarks>
internal static partial class ThreadCpuTime
{
    private const int RusageThread = 1;

    /// <summary>The calling thread's user and system time so far, or <see langword="null"/> off Linux or when the call fails.</summary>
    public static CpuSplit? Read()
    {
        // The struct below is the 64-bit layout, where the runner's other kernel counter runs too.
        if (!OperatingSystem.IsLinux() || !Environment.Is64BitProcess || GetResourceUsage(RusageThread, out ResourceUsage usage) != 0)
        {
            return null;
        }

        return new CpuSplit(usage.UserTime.Seconds, usage.SystemTime.Seconds);
    }

    [LibraryImport("libc", EntryPoint = "getrusage")]
    private static partial int GetResourceUsage(int who, out ResourceUsage usage);

    /// <summary><c>struct timeval</c> on a 64-bit Linux.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct TimeValue
    {
        public long SecondsPart;
        public long Microseconds;

        public readonly double Seconds => SecondsPart + (Microseconds / 1e6);
    }

    /// <summary><c>struct rusage</c> on a 64-bit Linux: the two times, then fourteen longs this class does not read.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct ResourceUsage
    {
        public TimeValue UserTime;
        public TimeValue SystemTime;
        public Counters Rest;
    }

    [System.Runtime.CompilerServices.InlineArray(14)]
    private struct Counters
    {
        private long _element;
    }
}
