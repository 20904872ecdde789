using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;

namespace KvBench.Benchmarks;

/// <summary>
/// The run strategy for operations that take milliseconds and vary a lot (device flushes): monitoring, a fixed number
/// of calls per iteration with no pilot stage and no overhead subtraction. Applied on top of whichever job runs, so
/// <c>--job</c> still chooses the runtime and toolchain.
/// </summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
public sealed class SlowOperationsAttribute : JobMutatorConfigBaseAttribute
{
    /// <summary>Creates the mutator.</summary>
    public SlowOperationsAttribute()
        : base(Job.Default
            .WithStrategy(RunStrategy.Monitoring)
            .WithWarmupCount(1)
            .WithIterationCount(5)
            .WithInvocationCount(4)
            .WithUnrollFactor(1))
    {
    }
}
