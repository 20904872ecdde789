namespace KvBench.Evaluation.Workload;

/// <summary>
/// What the process spent during a run's measured window: CPU time (user and system, every thread of the process,
/// the runtime's own included) and the system calls of the run's threads, over the window's wall time. Divided by the
/// operations of the window, they are the columns that explain a throughput: a rate that grows faster than the cores
/// did less work per operation, and these say which work.
/// </summary>
/// <param name="WallSeconds">The window the counters were read over.</param>
/// <param name="UserSeconds">Process CPU time in user mode over the window (see <see cref="SplitWindow"/>).</param>
/// <param name="SystemSeconds">Process CPU time in the kernel over the window (see <see cref="SplitWindow"/>).</param>
/// <param name="SystemCalls">System calls made by the run's threads over the window, or <see langword="null"/> where they cannot be counted.</param>
/// <param name="SystemCallsUnmeasured">Why <paramref name="SystemCalls"/> is missing, or <see langword="null"/>.</param>
/// <param name="Cores">Logical cores the process could run on.</param>
public sealed record ProcessCost(double WallSeconds, double UserSeconds, double SystemSeconds, long? SystemCalls, string? SystemCallsUnmeasured, int Cores)
{
    /// <summary>
    /// The least CPU time the user/system split may rest on. Linux splits CPU time by sampling: each timer tick (every
    /// 4 ms at 250 Hz, every 10 ms at 100 Hz) charges the mode it finds a thread in. A second of CPU time is 100 to 250
    /// samples, which puts a share of a tenth within a few hundredths; a tenth of a second, 10 to 25 samples, often has
    /// no sample of a minority mode at all, and the split then reads zero user or zero system time for work that had both.
    /// </summary>
    public const double MinimumSplitCpuSeconds = 1.0;

    /// <summary>
    /// The CPU time of the run's threads that <see cref="UserSeconds"/> and <see cref="SystemSeconds"/> are split by
    /// (<see cref="SplitWindow"/>), or <see langword="null"/> when the split is the process's own difference.
    /// </summary>
    public double? SplitCpuSeconds { get; init; }

    /// <summary>
    /// Whether the user/system split rests on enough timer samples to be printed (<see cref="MinimumSplitCpuSeconds"/>);
    /// the total, <see cref="UserSeconds"/> plus <see cref="SystemSeconds"/>, is exact either way.
    /// </summary>
    public bool SplitIsSampledEnough => SplitCpuSeconds >= MinimumSplitCpuSeconds;

    /// <summary>Bytes the process allocated on the managed heap over the window, every thread's, or <see langword="null"/> for a cost made elsewhere.</summary>
    public long? AllocatedBytes { get; init; }

    /// <summary>Managed bytes allocated per operation, or <see langword="null"/> when not counted.</summary>
    public double? AllocatedBytesPerOperation(double operationsPerSecond) => AllocatedBytes is { } bytes ? PerOperation(bytes, operationsPerSecond) : null;

    /// <summary>CPU time over wall time: how many cores the process kept busy on average.</summary>
    public double CoresBusy => WallSeconds > 0 ? (UserSeconds + SystemSeconds) / WallSeconds : 0;

    /// <summary>User plus system CPU time per operation, in microseconds, at <paramref name="operationsPerSecond"/>.</summary>
    public double CpuMicrosecondsPerOperation(double operationsPerSecond) => PerOperation(UserSeconds + SystemSeconds, operationsPerSecond) * 1e6;

    /// <summary>System CPU time per operation, in microseconds.</summary>
    public double SystemMicrosecondsPerOperation(double operationsPerSecond) => PerOperation(SystemSeconds, operationsPerSecond) * 1e6;

    /// <summary>System calls per operation, or <see langword="null"/> where they were not counted.</summary>
    public double? SystemCallsPerOperation(double operationsPerSecond) => SystemCalls is { } calls ? PerOperation(calls, operationsPerSecond) : null;

    /// <summary>
    /// The process's CPU time over a window, split into user and system. The total is the difference of the process's
    /// two readings, exact: the kernel counts a thread's CPU time to the nanosecond. The split of that difference is
    /// not the window's: Linux splits CPU time by the mode its timer ticks found a thread in and reports a process's
    /// split as the ratio of its ticks over its whole life, never letting either part fall (see
    /// <see cref="ThreadCpuTime"/>), so a window late in a long process can read no user time at all, or no system
    /// time. The run's own threads, started for the run and read once as they finish, carry the ratio of their own
    /// ticks over the warm-up and the window, the same work: the window's total is split in their proportion. Without
    /// them (off Linux), the process's own difference stands.
    /// </summary>
    /// <param name="process">The difference of the process's user and system times between the window's two ends.</param>
    /// <param name="runThreads">The run's threads' user and system times over their lives, added up, when they could be read.</param>
    public static CpuSplit SplitWindow(CpuSplit process, CpuSplit? runThreads)
    {
        if (runThreads is not { TotalSeconds: > 0 } threads)
        {
            return process;
        }

        double system = process.TotalSeconds * (threads.SystemSeconds / threads.TotalSeconds);
        return new CpuSplit(process.TotalSeconds - system, system);
    }

    /// <summary>A window's total spread over the operations it completed, taking the operations from the rate over the same length of time.</summary>
    private double PerOperation(double total, double operationsPerSecond) =>
        operationsPerSecond > 0 && WallSeconds > 0 ? total / WallSeconds / operationsPerSecond : 0;
}
