using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Workload;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>The "of it system" cell prints the kernel's split only where it rests on enough timer samples to mean anything.</summary>
public sealed class CpuSplitCellTests
{
    [Fact]
    public void A_split_resting_on_enough_cpu_time_is_printed_per_operation()
    {
        WorkloadResult result = Result(
            new ProcessCost(
                WallSeconds: 1, UserSeconds: 0.75, SystemSeconds: 0.25, SystemCalls: null, SystemCallsUnmeasured: null,
                Cores: 2)
            { SplitCpuSeconds = 1.5 });

        Assert.Equal("2.5 µs", WorkloadCells.SystemCpuPerOperation(result));
    }

    /// <summary>
    /// The old reading: a window whose threads ran 0.07 s of CPU, a few dozen ticks, none of them caught in user mode, so
    /// the whole time read as system, and the table said "of it system" equal to CPU/op.
    /// </summary>
    [Fact]
    public void A_split_resting_on_too_few_timer_samples_is_not_printed_and_says_how_little_it_had()
    {
        WorkloadResult result = Result(
            new ProcessCost(
                WallSeconds: 1, UserSeconds: 0, SystemSeconds: 0.07, SystemCalls: null, SystemCallsUnmeasured: null,
                Cores: 2)
            { SplitCpuSeconds = 0.07 });

        Assert.Equal("unsplit (70 ms of CPU)", WorkloadCells.SystemCpuPerOperation(result));
        Assert.False(result.Cost!.SplitIsSampledEnough);
    }

    [Fact]
    public void A_split_that_is_the_processs_own_difference_is_not_printed()
    {
        WorkloadResult result = Result(
            new ProcessCost(
                WallSeconds: 1, UserSeconds: 0.5, SystemSeconds: 0.5, SystemCalls: null, SystemCallsUnmeasured: null,
                Cores: 2));

        Assert.Equal("unsplit", WorkloadCells.SystemCpuPerOperation(result));
    }

    private static WorkloadResult Result(ProcessCost cost) => new()
    {
        Store = "Row",
        Workload = YcsbWorkloads.C,
        Settings = new RunSettings { Threads = 1 },
        Elapsed = TimeSpan.FromSeconds(1),
        Operations = [new OperationResult(OperationType.Read, 100_000, new LatencySummary(Count: 1, Mean: 1, P50: 1, P95: 1, P99: 1, P999: 1, Max: 1))],
        Cost = cost,
    };
}
