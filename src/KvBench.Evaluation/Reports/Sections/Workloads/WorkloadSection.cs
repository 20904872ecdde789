using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Workload;


namespace KvBench.Evaluation.Reports.Sections.Workloads;

/// <summary>
/// YCSB A to F, the thread sweep and the scale sweep on every row, all through the workload runner. A run with a wrong
/// read or an error fails the run. <c>kvbench ycsb</c> and <c>kvbench sweep</c> run them longer.
/// </summary>
/// <param name="settings">How long the YCSB, thread-sweep and scale suites run.</param>
/// <param name="scope">Which rows, at which tier.</param>
public sealed class WorkloadSection(SuiteSettings settings, WorkloadScope scope) : AdrSection<SuiteSettings>(settings)
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Every embedded row (<see cref="WorkloadScope.Embedded"/>) with <paramref name="settings"/>.</summary>
    public WorkloadSection(SuiteSettings settings)
        : this(settings, WorkloadScope.Embedded)
    {
    }

    /// <summary>The suites' settings for <paramref name="preset"/>.</summary>
    public WorkloadSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.Choose(quick: SuiteSettings.Smoke, evaluation: SuiteSettings.Evaluation, full: new SuiteSettings()))
    {
    }

    /// <summary>
    /// One workload on <paramref name="store"/>, loaded already, as <c>kvbench run</c> runs it: its line of the YCSB
    /// table, and a wrong read or an error as a problem.
    /// </summary>
    public static RanAlone<WorkloadResult> RunWorkloadAlone(IKeyValueStore store, WorkloadSpec workload, RunSettings settings)
    {
        WorkloadResult result = WorkloadRunner.Run(store, workload, settings);
        return RanAlone<WorkloadResult>.Of([WorkloadTables.Ycsb([result])], result, [result.Failure]);
    }

    /// <summary>
    /// <paramref name="workloads"/> on each of <paramref name="rows"/>, as <c>kvbench ycsb</c> runs them: the YCSB table,
    /// and each run's wrong read or error as a problem.
    /// </summary>
    public static RanAlone<IReadOnlyList<WorkloadResult>> RunYcsbAlone(
        IEnumerable<string> rows, IReadOnlyList<WorkloadSpec> workloads, SuiteSettings settings, string workDirectory,
        Action<string>? log = null, IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        return YcsbAlone(WorkloadSuites.Ycsb(rows, workloads, settings, workDirectory, log, loads, options));
    }

    /// <summary>What <c>kvbench ycsb</c> prints of <paramref name="results"/>, measured now or read from its results file.</summary>
    public static RanAlone<IReadOnlyList<WorkloadResult>> YcsbAlone(IReadOnlyList<WorkloadResult> results) =>
        RanAlone<IReadOnlyList<WorkloadResult>>.Of([WorkloadTables.Ycsb(results)], results, results.Select(result => result.Failure));

    /// <summary>
    /// The thread sweep on each of <paramref name="rows"/>, as <c>kvbench sweep threads</c> runs it: the rate and cost
    /// tables with the sentences that explain them, and each run's wrong read or error as a problem.
    /// </summary>
    public static RanAlone<IReadOnlyList<WorkloadResult>> RunThreadSweepAlone(
        IEnumerable<string> rows, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        return ThreadSweepAlone(WorkloadSuites.Threads(rows, settings, workDirectory, log, loads, options));
    }

    /// <summary>
    /// What <c>kvbench sweep threads</c> prints of <paramref name="results"/>, measured now or read from its results file.
    /// </summary>
    public static RanAlone<IReadOnlyList<WorkloadResult>> ThreadSweepAlone(IReadOnlyList<WorkloadResult> results) =>
        RanAlone<IReadOnlyList<WorkloadResult>>.Of(
            [ThreadTables.Threads(results), ThreadTables.ThreadCosts(results)],
            results,
            results.Select(result => result.Failure),
            [.. ThreadTables.FasterThanCores(results), .. ThreadTables.LoneSqliteReader(results)]);

    /// <summary>
    /// The scale sweep on each of <paramref name="rows"/>, as <c>kvbench sweep scale</c> runs it: the scale table, and a
    /// wrong read or an error of any of its runs as a problem.
    /// </summary>
    public static RanAlone<IReadOnlyList<ScalePoint>> RunScaleSweepAlone(
        IEnumerable<string> rows, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null, Func<string, StoreOptions>? options = null)
    {
        return ScaleSweepAlone(WorkloadSuites.Scale(rows, settings, workDirectory, log, loads, options));
    }

    /// <summary>
    /// What <c>kvbench sweep scale</c> prints of <paramref name="points"/>, measured now or read from its results file.
    /// </summary>
    public static RanAlone<IReadOnlyList<ScalePoint>> ScaleSweepAlone(IReadOnlyList<ScalePoint> points) =>
        RanAlone<IReadOnlyList<ScalePoint>>.Of(
            [WorkloadTables.Scale(points)],
            points,
            points.SelectMany(point => (WorkloadResult[])[point.Get, point.Put, point.Scan]).Select(result => result.Failure));

    /// <inheritdoc/>
    public override string Name => "workloads";

    /// <summary>Which rows the suites run, at which tier.</summary>
    public WorkloadScope Scope { get; } = scope;

    /// <summary>YCSB A to F on every row, when the run measured them.</summary>
    [InResultsFile]
    public IReadOnlyList<WorkloadResult>? Ycsb { get; set; }

    /// <summary>The thread sweep on every row, when the run measured it.</summary>
    [InResultsFile]
    public IReadOnlyList<WorkloadResult>? ThreadSweep { get; set; }

    /// <summary>The scale sweep on every row, when the run measured it.</summary>
    [InResultsFile]
    public IReadOnlyList<ScalePoint>? Scale { get; set; }

    private IEnumerable<WorkloadResult> ScaleRuns => (Scale ?? []).SelectMany(point => (WorkloadResult[])[point.Get, point.Put, point.Scan]);

    /// <inheritdoc/>
    public override Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        IReadOnlyList<string> rows = Scope.Rows();
        context.Log("Running YCSB A to F and the thread sweep on every row...");
        (Ycsb, ThreadSweep) = WorkloadSuites.Evaluation(
            rows,
            Settings,
            Path.Combine(context.WorkDirectory, $"{Scope.ChartPrefix}workloads"),
            context.Log,
            options: Scope.OptionsFor);
        context.Took("YCSB and the thread sweep");
        context.Log(
            $"Running the scale sweep (" +
                $"{string.Join(", ", Settings.ScaleRecords.Select(records => records.ToString("N0", s_numbers)))} " +
                $"records) on every row...");
        Scale = WorkloadSuites.Scale(rows, Settings, Path.Combine(context.WorkDirectory, $"{Scope.ChartPrefix}scale"), context.Log, options: Scope.OptionsFor);
        context.Took("The scale sweep");
        return Task.CompletedTask;
    }

    /// <summary>"Workload failed: ..." for each run with a wrong read or an error.</summary>
    public override IReadOnlyList<string> Problems() =>
        [.. (Ycsb ?? [])
            .Concat(ThreadSweep ?? [])
            .Concat(ScaleRuns)
            .Select(run => run.Failure)
            .OfType<string>()
            .Select(failure => $"Workload failed: {failure}")];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Ycsb is null && ThreadSweep is null && Scale is null)
        {
            return;
        }

        markdown.Output.AppendLine("## Workloads").AppendLine();
        WriteTables(markdown);
    }

    /// <summary>
    /// How the suites ran and their tables with their charts, under the chapter the caller wrote: "Workloads" for the
    /// embedded rows, the server section's own for the server rows.
    /// </summary>
    public void WriteTables(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        StringBuilder output = markdown.Output;
        WriteMethod(output, markdown.Machine);
        if (Ycsb is { Count: > 0 })
        {
            output.AppendLine("### YCSB core workloads").AppendLine();
            output.AppendLine(
                "A: 50% reads, 50% updates; B: 95/5; C: reads only; F: 50% reads, 50% read-modify-writes (zipfian " +
                    "0.99, scrambled); D: 95% reads, 5% inserts, the newest records hottest; E: 95% scans of 1 to " +
                    "100 records from a chosen key, 5% inserts.").AppendLine();
            WorkloadTables.Ycsb(Ycsb, Scope.Durability).WriteTo(output);
            markdown.Charts(
                Placed([.. AdrCharts.YcsbP99(Ycsb), .. AdrCharts.YcsbPercentiles(Ycsb)]),
                "p99 latency of each workload's operations per row (Mermaid, one chart per workload and operation); " +
                    "the PNGs draw p50 to p99.9 on a log scale, one line per row.");
        }

        if (ThreadSweep is { Count: > 0 })
        {
            output.AppendLine("### Threads").AppendLine();
            output.AppendLine(
                "Operations per second of all threads, uniform keys; reads are Gets, writes overwrite existing keys " +
                    "with new versions.").AppendLine();
            ThreadTables.Threads(ThreadSweep, Scope.Durability).WriteTo(output);
            markdown.Charts(
                Placed(AdrCharts.Threads(ThreadSweep)),
                "Operations per second against threads (Mermaid: one chart per row and mix, on its own linear scale; " +
                    "PNG: one line per row, log scale, so the in-memory rows do not flatten the rest).");
            ThreadTables.WriteThreadCosts(output, ThreadSweep);
        }

        if (Scale is { Count: > 0 })
        {
            output.AppendLine("### Scale").AppendLine();
            output.AppendLine(
                s_numbers,
                $"Each row loaded to " +
                    $"{string.Join(", ", Scale.Select(point => point.Records).Distinct().Select(records => records.ToString("N0", s_numbers)))}" +
                    $" records in turn (batches of 1,000, then Flush) in one directory; at each size, one thread of " +
                    $"Gets, one of Puts and one of scans of 1 to 100 records, uniform keys. Bytes on disk: the " +
                    $"lengths of every file in the row's directory after the load and Flush added up, not the blocks " +
                    $"the file system gave them (FileSystem's one small file per record takes a whole block each).").AppendLine();
            WorkloadTables.Scale(Scale, Scope.Durability).WriteTo(output);
            markdown.Charts(Placed(AdrCharts.Scale(Scale)), "What each row costs as it grows, log-log: a flat line does not slow down with size.");
        }
    }

    /// <summary>
    /// <paramref name="charts"/> as this section places them: the embedded section's as they are; another scope's with
    /// its prefix on their ids and its tier in their titles.
    /// </summary>
    private IReadOnlyList<Chart> Placed(IReadOnlyList<Chart> charts)
    {
        if (Scope.ChartPrefix.Length == 0 && Scope.Durability == Durability.Buffered)
        {
            return charts;
        }

        string tier = AdrCharts.WorkloadTier([.. (Ycsb ?? []).Concat(ThreadSweep ?? []).Concat(ScaleRuns).Select(run => run.Store)], Scope.Durability);
        return [.. charts.Select(chart => chart with { Id = Scope.ChartPrefix + chart.Id, Tier = tier })];
    }

    /// <summary>How the suites load and run; the scale sweep's own paragraph says how it loads.</summary>
    private void WriteMethod(StringBuilder output, MachineInfo machine)
    {
        if ((Ycsb?.FirstOrDefault() ?? ThreadSweep?.FirstOrDefault()) is not { } sample)
        {
            return;
        }

        output.AppendLine(
            s_numbers,
            $"Every row loaded with {sample.Workload.RecordCount:N0} records (9-byte keys, " +
                $"{sample.Workload.ValueBytes}-byte values) in a fresh directory at {Scope.Durability} durability, " +
                $"then driven by the workload runner: closed loop, {sample.Settings.Warmup.TotalSeconds:0.##} s of " +
                $"warm-up and {sample.Settings.Duration.TotalSeconds:0.##} s measured per run, every operation timed " +
                $"into a histogram (p50 to max per operation, not per iteration), every read checked against the " +
                $"versions written for its key. On {machine.LogicalCores} logical cores, runs of more threads than " +
                $"cores measure contention, not parallelism. Longer runs: `kvbench ycsb` and `kvbench sweep threads` " +
                $"(5 s per run).").AppendLine();
        string? unmeasured = WorkloadTables.SystemCallsUnmeasured([.. Ycsb ?? [], .. ThreadSweep ?? [], .. ScaleRuns]);
        output.AppendLine(
            s_numbers,
            $"CPU/op is the process's CPU time (user and system, every thread, the runtime's and the runner's own " +
                $"work included: the same runner for every row) over the measured window, divided by the operations " +
                $"completed in it; of it system is that time split in the proportion the kernel split the run's own " +
                $"threads' time between user and kernel over their lives (warm-up and window, the same work), as " +
                $"Linux splits a process's time by its timer ticks over the process's whole life, which over one " +
                $"window late in a long run can read all user or all system; and since the kernel splits by sampling " +
                $"a tick at a time, a split resting on under {ProcessCost.MinimumSplitCpuSeconds:0.#} s of the run's " +
                $"threads' CPU time is not printed (\"unsplit\", with the CPU time it had), too few samples to tell " +
                $"a minority mode from none; syscalls/op counts the system calls of the run's threads with the " +
                $"kernel's own counter (perf_event_open on the raw_syscalls:sys_enter tracepoint: an increment per " +
                $"call, not a tracer)" +
                $"{(unmeasured is not null ? $"; here system calls were {unmeasured}" : string.Empty)}. This machine " +
                $"has {machine.LogicalCores} logical cores.").AppendLine();
    }
}
