using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks;
using KvBench.Benchmarks.Paired;
using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores.Faster;
using KvBench.Stores.LiteDb;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;

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
            Assert.False(
                benchmarkCase.Job.Run.HasValue(RunMode.IterationCountCharacteristic),
                "BenchmarkDotNet's default job lets its pilot choose the iterations.");
        });
    }

    [Fact]
    public void Rows_keep_the_cases_of_those_rows_and_their_variants_and_leave_benchmark_dotnet_its_arguments()
    {
        string[] args = BenchmarkArguments.WithoutRows(
            ["--filter", "*", BenchmarkArguments.RowsSwitch, $"{FasterRow.RowName},{MemoryRow.RowName}", "--job", "dry"],
            out IReadOnlyList<string>? rows);

        Assert.Equal(["--filter", "*", "--job", "dry"], args);
        HashSet<string> types = [.. Cases(typeof(PointOperations), rows, args).Select(TypeOf)];
        Assert.Equal([FasterRow.RowName, $"{FasterRow.RowName}_raw", MemoryRow.RowName, $"{MemoryRow.RowName}_raw"], types.Order(StringComparer.Ordinal));
        Assert.Throws<ArgumentException>(() => BenchmarkArguments.WithoutRows([BenchmarkArguments.RowsSwitch, "NoSuchRow"], out _));
        Assert.Throws<ArgumentException>(() => BenchmarkArguments.WithoutRows([BenchmarkArguments.RowsSwitch], out _));
    }

    [Fact]
    public void The_paired_measurement_alone_takes_only_rows_and_refuses_anything_else_with_exit_code_2()
    {
        Assert.Equal(2, PairedMeasurement.RunAlone(["--job", "dry"]));
        Assert.Throws<ArgumentException>(() => PairedMeasurement.RunAlone([BenchmarkArguments.RowsSwitch, "NoSuchRow"]));
    }

    [Fact]
    public void The_evaluations_write_the_ADR_with_their_settings_and_the_command_that_regenerates_it_and_BenchmarkDotNet_s_arguments_no_ADR()
    {
        Assert.Equal(AdrPreset.Default, EvaluationPlan.Default.Adr);
        Assert.Equal("dotnet run -c Release --project benchmarks/KvBench.Benchmarks", EvaluationPlan.Default.Command);
        Assert.Equal(AdrPreset.Full, EvaluationPlan.Full.Adr);
        Assert.Equal("dotnet run -c Release --project benchmarks/KvBench.Benchmarks -- --full", EvaluationPlan.Full.Command);
        Assert.Null(EvaluationPlan.BenchmarksOnly(() => []).Adr);
    }

    [Fact]
    public void The_servers_switch_adds_the_server_section_to_either_evaluation_and_says_so_in_its_command_and_the_default_stays_embedded()
    {
        Assert.False(EvaluationPlan.Default.Servers);
        Assert.False(EvaluationPlan.Full.Servers);
        EvaluationPlan servers = EvaluationPlan.Default.WithServers();
        Assert.True(servers.Servers);
        Assert.Equal(AdrPreset.Default, servers.Adr);
        Assert.Equal("dotnet run -c Release --project benchmarks/KvBench.Benchmarks -- --servers", servers.Command);
        Assert.Equal("dotnet run -c Release --project benchmarks/KvBench.Benchmarks -- --full --servers", EvaluationPlan.Full.WithServers().Command);
    }

    [Fact]
    public void Threaded_point_operations_leave_out_a_raw_driver_that_serves_one_thread_above_one_thread()
    {
        BenchmarkCase[] cases = Cases(typeof(ThreadedPointOperations));

        Assert.All(cases.Where(benchmarkCase => ThreadsOf(benchmarkCase) > 1), benchmarkCase =>
            Assert.True(PointTargets.ServesManyThreads(TypeOf(benchmarkCase))));
        Assert.Contains(cases, benchmarkCase => TypeOf(benchmarkCase) == $"{FasterRow.RowName}_raw" && ThreadsOf(benchmarkCase) == 4);
        Assert.Contains(cases, benchmarkCase => TypeOf(benchmarkCase) == $"{LmdbRow.RowName}_raw" && ThreadsOf(benchmarkCase) == 1);
        Assert.DoesNotContain(cases, benchmarkCase => TypeOf(benchmarkCase) == $"{LmdbRow.RowName}_raw" && ThreadsOf(benchmarkCase) > 1);
    }

    [Fact]
    public void A_variant_measured_at_one_value_size_runs_only_there_and_its_row_at_every_size()
    {
        BenchmarkCase[] cases = BenchmarkConverter.TypeToBenchmarks(typeof(PointOperations), KvBenchConfig.Create(KvBenchConfig.EvaluationJob)).BenchmarksCases;
        int[] SizesOf(string type) =>
            [.. cases
                .Where(c => (string)c.Parameters[nameof(PointOperations.Type)] == type)
                .Select(c => (int)c.Parameters[nameof(PointOperations.ValueBytes)])
                .Distinct()
                .Order()];

        Assert.Equal([128], SizesOf(LiteDbRow.SharedName + "_raw"));
        Assert.Equal([128], SizesOf(LiteDbRow.SharedName + "_naive"));
        Assert.Equal([128, 1028], SizesOf(LiteDbRow.SharedName));
        Assert.Equal([128, 1028], SizesOf(SqliteRow.WalName + "_raw"));
        Assert.Equal([128], SizesOf(SqliteRow.WalName + "_naive"));

        // GetArray and HaveKey at one size, on every row; Put and Get at both.
        Assert.All(
            cases.Where(c => c.Descriptor.WorkloadMethod.Name is nameof(PointOperations.GetArray) or nameof(PointOperations.HaveKey)),
            c => Assert.Equal(128, (int)c.Parameters[nameof(PointOperations.ValueBytes)]));
        Assert.Contains(cases, c =>
            c.Descriptor.WorkloadMethod.Name == nameof(PointOperations.Put)
                && (int)c.Parameters[nameof(PointOperations.ValueBytes)] == 1028);
        Assert.Contains(cases, c =>
            c.Descriptor.WorkloadMethod.Name == nameof(PointOperations.Get)
                && (int)c.Parameters[nameof(PointOperations.ValueBytes)] == 1028);
    }

    [Fact]
    public void Every_suite_of_a_run_builds_its_benchmark_process_alike_without_analyzers()
    {
        BenchmarkCase[] evaluation =
        [
            .. BenchmarkConverter.TypeToBenchmarks(typeof(PointOperations), KvBenchConfig.Create(KvBenchConfig.EvaluationJob)).BenchmarksCases,
            .. BenchmarkConverter.TypeToBenchmarks(typeof(SyncedPuts), KvBenchConfig.Create(job: null)).BenchmarksCases,
        ];
        BenchmarkCase[] commandLine = [.. Cases(typeof(PointOperations), "--job", "dry"), .. Cases(typeof(SyncedPuts))];
        static string BuildArguments(BenchmarkCase benchmarkCase) =>
            string.Join(' ', benchmarkCase.Job.Infrastructure.Arguments?.Select(argument => argument.TextRepresentation) ?? []);

        foreach (BenchmarkCase[] run in new[] { evaluation, commandLine })
        {
            // Jobs whose build arguments differ get a build each: one run, one build.
            Assert.Single(run.Select(BuildArguments).Distinct());
            Assert.Contains("/p:RunAnalyzers=false", BuildArguments(run[0]), StringComparison.Ordinal);
        }

        Assert.Contains(evaluation, benchmarkCase => benchmarkCase.Job.Id == SlowOperationsAttribute.Job.Id);
    }

    private static string TypeOf(BenchmarkCase benchmarkCase) => (string)benchmarkCase.Parameters[nameof(PointOperations.Type)];

    private static int ThreadsOf(BenchmarkCase benchmarkCase) => (int)benchmarkCase.Parameters[nameof(ThreadedPointOperations.Threads)];

    private static BenchmarkCase[] Cases(Type benchmark, params string[] args) => Cases(benchmark, rows: null, args);

    private static BenchmarkCase[] Cases(Type benchmark, IReadOnlyList<string>? rows, params string[] args)
    {
        BenchmarkDotNet.Configs.IConfig global = KvBenchConfig.ForCommandLine(rows);
        (bool parsed, BenchmarkDotNet.Configs.IConfig config, _) = ConfigParser.Parse(args, NullLogger.Instance, global);
        Assert.True(parsed, $"BenchmarkDotNet did not parse {string.Join(' ', args)}.");

        // As BenchmarkSwitcher runs: the parsed arguments over KvBench's config, whose filters the parse result lacks.
        return BenchmarkConverter.TypeToBenchmarks(benchmark, BenchmarkDotNet.Configs.ManualConfig.Union(global, config)).BenchmarksCases;
    }
}
