namespace KvBench.Evaluation.Workload;

/// <summary>
/// What the process spent during a run's measured window: CPU time (user and system, every thread of the process,
/// the runtime's own included) and the system calls of the run's threads, over the window's wall time. Divided by the
/// operations of the window, they are the columns that explain a throughput: a rate that grows faster than the cores
/// did less work per operation, and these say which work.
/// </summary>
/// <param name="WallSeconds">The window the counters were read over.</param>
/// <param name="UserSeconds">Process CPU time in user mode over the window.</param>
/// <param name="SystemSeconds">Process CPU time in the kernel over the window.</param>
/// <param name="SystemCalls">System calls made by the run's threads over the window, or <see langword="null"/> where they cannot be counted.</param>
/// <param name="SystemCallsUnmeasured">Why <paramref name="SystemCalls"/> is missing, or <see langword="null"/>.</param>
/// <param name="Cores">Logical cores the process could run on.</param>
public sealed record ProcessCost(double WallSeconds, double UserSeconds, double SystemSeconds, long? SystemCalls, string? SystemCallsUnmeasured, int Cores)
{
    /// <summary>CPU time over wall time: how many cores the process kept busy on average.</summary>
    public double CoresBusy => WallSeconds > 0 ? (UserSeconds + SystemSeconds) / WallSeconds : 0;

    /// <summary>User plus system CPU time per operation, in microseconds, at <paramref name="operationsPerSecond"/>.</summary>
    public double CpuMicrosecondsPerOperation(double operationsPerSecond) => PerOperation(UserSeconds + SystemSeconds, operationsPerSecond) * 1e6;

    /// <summary>System CPU time per operation, in microseconds.</summary>
    public double SystemMicrosecondsPerOperation(double operationsPerSecond) => PerOperation(SystemSeconds, operationsPerSecond) * 1e6;

    /// <summary>System calls per operation, or <see langword="null"/> where they were not counted.</summary>
    public double? SystemCallsPerOperation(double operationsPerSecond) => SystemCalls is { } calls ? PerOperation(calls, operationsPerSecond) : null;

    /// <summary>A window's total spread over the operations it completed, taking the operations from the rate over the same length of time.</summary>
    private double PerOperation(double total, double operationsPerSecond) => operationsPerSecond > 0 && WallSeconds > 0 ? total / WallSeconds / operationsPerSecond : 0;
}
