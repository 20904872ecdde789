using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Measuring;

namespace KvBench.Benchmarks;

/// <summary>The one config every KvBench suite runs with; only the job differs between a quick and a full run.</summary>
internal static class KvBenchConfig
{
    /// <summary>
    /// The job of the default run: a few short iterations per case, so about 140 cases finish inside the 15 minutes on
    /// two cores. 50 ms iterations: longer ones do not fit that budget, since much of a case's time is BenchmarkDotNet's
    /// pilot finding the invocation count at the iteration time. The adapter ÷ raw verdicts do not rest on these
    /// medians (they are measured paired: <see cref="Paired.PairedPrice"/>), so the cases give up length: eight measured
    /// iterations and one of warm-up, since the pilot has already run the operation for about half a second. No overhead
    /// iterations: BenchmarkDotNet would time an empty call for many iterations a case to subtract a cost that is
    /// negligible beside every case's own, lengthening the run without moving a ratio. Good for ratios within one run;
    /// BenchmarkDotNet's default job (<c>--full</c>) for publishable precision, overhead subtracted.
    /// </summary>
    public static Job EvaluationJob { get; } = Job.Default
        .WithId("Evaluation")
        .WithLaunchCount(1)
        .WithWarmupCount(1)
        .WithIterationCount(8)
        .WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(50))
        .WithEvaluateOverhead(false);

    /// <summary>
    /// How BenchmarkDotNet builds its copy of this project for the benchmark process, applied to every job (a mutator,
    /// so the jobs of a run still share one build): that copy rebuilds every project of the solution into a folder of
    /// its own, a noticeable part of a default run, and the analyzers, style checks and XML docs these turn off are a
    /// large part of that rebuild while they change no IL. (BenchmarkDotNet also turns the compiler server off, which
    /// costs most of the rest; its property comes after these on its command line, so it wins.)
    /// </summary>
    private static Job BuildSettings { get; } = Job.Default.WithArguments(
    [
        // The analyzers and style checks ran in the build this run started from; they change no IL.
        new MsBuildArgument("/p:RunAnalyzers=false"),
        new MsBuildArgument("/p:EnforceCodeStyleInBuild=false"),

        // The benchmark process reads no XML docs.
        new MsBuildArgument("/p:GenerateDocumentationFile=false"),
    ]).AsMutator();

    /// <summary>
    /// The config, running <paramref name="job"/>, or each class's default job (BenchmarkDotNet's, or the class's own
    /// such as <see cref="SlowOperationsAttribute"/>) when it is <see langword="null"/>. BenchmarkDotNet's default
    /// out-of-process toolchain is kept: it builds and runs a net10.0 benchmark process, and a process per
    /// case keeps one row's heap and threads from disturbing the next row's numbers.
    /// </summary>
    /// <param name="job">The job, or <see langword="null"/> for each class's default.</param>
    /// <param name="rows">
    /// Only the cases whose <c>Type</c> is one of these catalog rows or a variant of one (<c>_raw</c>, <c>_naive</c>);
    /// <see langword="null"/> for every row.
    /// </param>
    public static IConfig Create(Job? job, IReadOnlyCollection<string>? rows = null)
    {
        ManualConfig config = ManualConfig.CreateEmpty()
            .AddLogger(DefaultConfig.Instance.GetLoggers().ToArray())
            .AddAnalyser(DefaultConfig.Instance.GetAnalysers().ToArray())
            .AddValidator(DefaultConfig.Instance.GetValidators().ToArray())
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumn(StatisticColumn.OperationsPerSecond, new RatioColumn(), new AcknowledgedColumn())
            .AddExporter(MarkdownExporter.GitHub, CsvExporter.Default, JsonExporter.Full)
            .AddFilter(new SimpleFilter(benchmarkCase => IsSelected(benchmarkCase, rows)))
            .WithOrderer(ReadsBeforeWritesOrderer.Instance)
            .AddEventProcessor(new RowHostsProcessor())
            // A case that threw, or whose preload read back wrong bytes, makes the whole run no result.
            .WithOption(ConfigOptions.StopOnFirstError, true)
            .AddJob(BuildSettings);
        return job is null ? config : config.AddJob(job);
    }

    /// <summary>
    /// Whether <paramref name="benchmarkCase"/> runs: a variant or a method measured at one value size only
    /// (<see cref="PointVariantAttribute.OnlyValueBytes"/>, <see cref="PointOperationCases.MeasuresAt"/>,
    /// <see cref="ServerPointOperations.Measures"/>) leaves out its
    /// other cases, and with <paramref name="rows"/> only those rows and their variants run.
    /// </summary>
    private static bool IsSelected(BenchmarkCase benchmarkCase, IReadOnlyCollection<string>? rows)
    {
        if (benchmarkCase.Parameters[nameof(PointOperations.Type)] is not string type)
        {
            return rows is null;
        }

        return (benchmarkCase.Parameters[nameof(PointOperations.ValueBytes)] is not int valueBytes
                || (PointTargets.Measures(type, valueBytes) && Measures(benchmarkCase.Descriptor, valueBytes)))
            && (rows is null || rows.Contains(RowVariants.Parse(type).Row));
    }

    /// <summary>Whether the benchmark class of <paramref name="descriptor"/> measures its method at <paramref name="valueBytes"/>.</summary>
    private static bool Measures(Descriptor descriptor, int valueBytes) =>
        descriptor.Type == typeof(ServerPointOperations)
            ? ServerPointOperations.Measures(descriptor.WorkloadMethod.Name, valueBytes)
            : PointOperationCases.MeasuresAt(descriptor.WorkloadMethod.Name, valueBytes);

    /// <summary>
    /// For BenchmarkDotNet's own arguments: no job of KvBench's, so <c>--job</c> chooses, and without it each class runs
    /// its default job. With <paramref name="rows"/>, only the cases whose <c>Type</c> is one of those catalog rows or a
    /// variant of one (<c>_raw</c>, <c>_naive</c>).
    /// </summary>
    public static IConfig ForCommandLine(IReadOnlyCollection<string>? rows = null) => Create(job: null, rows);
}
