using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks;
using KvBench.Stores;

namespace KvBench.Tests.Benchmarks;

/// <summary>
/// BenchmarkDotNet's own arguments reach the suites as BenchmarkDotNet documents them: the command line is parsed with
/// KvBench's command-line config exactly as <c>Program</c> hands it to <see cref="BenchmarkSwitcher"/>, and the cases
/// that would run are inspected, not run.
/// </summary>
public sealed class BenchmarkArgumentsTests
{
    [Fact]
    public void A_dry_job_chosen_on_the_command_line_is_the_job_synced_puts_run()
    {
        BenchmarkCase[] cases = Cases(typeof(SyncedPuts), "--job", "dry");

        Assert.NotEmpty(cases);
        Assert.All(cases, benchmarkCase =>
        {
            Assert.Equal(RunStrategy.ColdStart, benchmarkCase.Job.Run.RunStrategy);
            Assert.Equal(1, benchmarkCase.Job.Run.IterationCount);
        });
    }

    [Fact]
    public void Without_a_job_synced_puts_run_their_own_monitoring_job_and_point_operations_benchmark_dotnet_s_default()
    {
        Assert.All(Cases(typeof(SyncedPuts)), benchmarkCase =>
        {
            Assert.Equal(RunStrategy.Monitoring, benchmarkCase.Job.Run.RunStrategy);
            Assert.Equal(SlowOperationsAttribute.Job.Run.IterationCount, benchmarkCase.Job.Run.IterationCount);
        });
        Assert.All(Cases(typeof(PointOperations)), benchmarkCase =>
        {
            Assert.Equal(RunStrategy.Throughput, benchmarkCase.Job.Run.RunStrategy);
            Assert.False(benchmarkCase.Job.Run.HasValue(RunMode.IterationCountCharacteristic), "BenchmarkDotNet's default job lets its pilot choose the iterations.");
        });
    }

    [Fact]
    public void A_variant_measured_at_one_value_size_runs_only_there_and_its_row_at_every_size()
    {
        BenchmarkCase[] cases = BenchmarkConverter.TypeToBenchmarks(typeof(PointOperations), KvBenchConfig.Create(KvBenchConfig.EvaluationJob)).BenchmarksCases;
        int[] SizesOf(string type) => [.. cases.Where(c => (string)c.Parameters[nameof(PointOperations.Type)] == type).Select(c => (int)c.Parameters[nameof(PointOperations.ValueBytes)]).Distinct().Order()];

        Assert.Equal([128], SizesOf(StoreNames.LiteDb + "_raw"));
        Assert.Equal([128], SizesOf(StoreNames.LiteDb + "_naive"));
        Assert.Equal([128, 1028], SizesOf(StoreNames.LiteDb));
        Assert.Equal([128, 1028], SizesOf(StoreNames.SqliteWal + "_raw"));
    }

    private static BenchmarkCase[] Cases(Type benchmark, params string[] args)
    {
        (bool parsed, BenchmarkDotNet.Configs.IConfig config, _) = ConfigParser.Parse(args, NullLogger.Instance, KvBenchConfig.ForCommandLine());
        Assert.True(parsed, $"BenchmarkDotNet did not parse {string.Join(' ', args)}.");
        return BenchmarkConverter.TypeToBenchmarks(benchmark, config).BenchmarksCases;
    }
}
