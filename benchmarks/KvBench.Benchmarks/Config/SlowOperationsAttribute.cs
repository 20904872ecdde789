using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;

namespace KvBench.Benchmarks;

/// <summary>
/// The default job of a class whose operations take milliseconds and vary a lot (device flushes): monitoring, a fixed
/// number of calls per iteration with no pilot stage and no overhead subtraction. A default job, not a mutator: a job
/// chosen on the command line (<c>--job dry</c>, <c>--job short</c>) replaces it, as BenchmarkDotNet documents for
/// default jobs, where a mutator would have rewritten the chosen job's iteration counts and strategy into this one.
/// </summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
public sealed class SlowOperationsAttribute : Attribute, IConfigSource
{
    /// <summary>The job: one warm-up and five measured iterations of four calls each.</summary>
    public static Job Job { get; } = Job.Default
        .WithId("SlowOperations")
        .WithStrategy(RunStrategy.Monitoring)
        .WithLaunchCount(1)
        .WithWarmupCount(1)
        .WithIterationCount(5)
        .WithInvocationCount(4)
        .WithUnrollFactor(1);

    /// <inheritdoc />
    public IConfig Config { get; } = ManualConfig.CreateEmpty().AddJob(Job.AsDefault());
}
