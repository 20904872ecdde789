using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>
/// The ADR file's charts, each built from the same results its table is printed from. A new table's chart is one
/// <see cref="Chart.Pivot"/> call here: which result goes to which series and category, and which value it shows.
/// </summary>
public static class AdrCharts
{
    /// <summary>The latency percentiles drawn per row, p50 to p99.9: the tail a user waits on, not the one worst operation.</summary>
    public static IReadOnlyList<(string Name, Func<LatencySummary, double> Of)> Percentiles { get; } =
        [("p50", latency => latency.P50), ("p95", latency => latency.P95), ("p99", latency => latency.P99), ("p99.9", latency => latency.P999)];

    private static readonly string[] s_pointMethods = [PointMethods.Put, PointMethods.Get, PointMethods.HaveKey];

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>
    /// Mean time per call of Put, Get and HaveKey for every catalog row (raw baselines and naive usages are in the ratio
    /// tables), one chart per value size. In time, not operations per second, so the in-memory rows (FASTER, the Memory
    /// floor) are the short bars they are instead of flattening every store that writes to a file; the title names them.
    /// </summary>
    /// <param name="report">A point-operation report (its Method, Type, ValueBytes and Mean columns).</param>
    public static IReadOnlyList<Chart> PointOperations(BenchmarkReport report) =>
        Benchmark(report, "point-operations", s_pointMethods, "Mean time per call", "Buffered");

    /// <summary>Mean time per Put and per item of a 100-item PutMany at Synced durability, one chart per value size.</summary>
    /// <param name="report">A synced-puts report.</param>
    public static IReadOnlyList<Chart> SyncedPuts(BenchmarkReport report) =>
        Benchmark(report, "synced-puts", [PointMethods.Put, "PutMany"], "Mean time per item", "Synced");

    /// <summary>Operations per second against threads, one chart per mix, one series per row.</summary>
    public static IReadOnlyList<Chart> Threads(IReadOnlyList<WorkloadResult> results) =>
        [.. results.GroupBy(result => result.Workload.Name).Select(mix => Chart.Pivot(
            mix,
            series: result => result.Store,
            category: result => result.Settings.Threads.ToString(s_numbers),
            value: result => result.OperationsPerSecond,
            position: result => result.Settings.Threads,
            new Chart
            {
                Id = $"threads-{Slug(mix.Key)}",
                Title = $"Operations per second against threads, {mix.Key}",
                Tier = WorkloadTier(mix),
                Kind = ChartKind.Lines,
                X = new ChartAxis("Threads", "log scale", AxisScale.Log),
                // Log in the PNG: the in-memory rows run ten times faster than the rest, which a linear axis would flatten.
                Y = new ChartAxis("Operations per second, all threads", "ops/s", AxisScale.Log),
            }))];

    /// <summary>
    /// The run over time: for each run, its operations per second and its p99 in each interval of its timeline, two
    /// charts, so that a stall (a checkpoint, a compaction, a map growth, an election) shows as a dip in the one and a
    /// peak in the other at the same time.
    /// </summary>
    public static IReadOnlyList<Chart> OverTime(IReadOnlyList<WorkloadResult> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var charts = new List<Chart>();
        foreach (WorkloadResult run in runs.Where(run => run.Timeline.Count > 0))
        {
            string name = $"{run.Store}, {run.Workload.Name}, {run.Settings.Threads} threads";
            string id = $"over-time-{Slug(run.Store)}-{Slug(run.Workload.Name)}-x{run.Settings.Threads}";
            TimeUnit unit = TimeUnit.For(run.Timeline.Max(point => point.P99));
            Chart Over(string suffix, string title, ChartAxis y, Func<TimelinePoint, double?> value) => Chart.Pivot(
                run.Timeline,
                series: _ => run.Store,
                category: point => Chart.Number(Math.Round(point.StartSeconds, 3)),
                value,
                position: point => point.StartSeconds,
                new Chart
                {
                    Id = $"{id}-{suffix}",
                    Title = $"{title} over the run, {name}",
                    Tier = WorkloadTier([run]),
                    Kind = ChartKind.Lines,
                    X = new ChartAxis("Seconds into the measured window", "s"),
                    Y = y,
                });
            charts.Add(Over("throughput", "Operations per second", new ChartAxis("Operations per second", "ops/s"), point => point.OperationsPerSecond));
            // An interval in which nothing completed has no p99: a gap, not a 0 that would read as fast.
            charts.Add(Over("p99", "p99 latency", new ChartAxis("p99", unit.Symbol), point => point.P99 > 0 ? unit.From(point.P99) : null));
        }

        return charts;
    }

    /// <summary>p99 latency of each workload's operation for every row: one Mermaid chart per workload and operation.</summary>
    public static IReadOnlyList<Chart> YcsbP99(IReadOnlyList<WorkloadResult> results) =>
        PerOperation(
            results,
            "p99",
            "p99 latency per row",
            ChartKind.Bars,
            new ChartAxis("Row", string.Empty),
            new ChartAxis("p99 latency", string.Empty),
            ChartOutputs.Markdown,
            values => TimeUnit.For(values.DefaultIfEmpty().Max()),
            item => [("p99", item.Result.Store, item.Operation.Latency.P99)]);

    /// <summary>Latency percentiles p50 to p99.9 of each workload's operation, one line per row, log scale: one PNG per workload and operation.</summary>
    public static IReadOnlyList<Chart> YcsbPercentiles(IReadOnlyList<WorkloadResult> results) =>
        PerOperation(
            results,
            "latency",
            "latency percentiles",
            ChartKind.Lines,
            new ChartAxis("Percentile", string.Empty),
            new ChartAxis("Latency", string.Empty, AxisScale.Log),
            ChartOutputs.Image,
            TimeUnit.ForLogScale,
            item => Percentiles.Select(percentile => (item.Result.Store, percentile.Name, percentile.Of(item.Operation.Latency))));

    /// <summary>What each row costs as it grows: median Get, Put and scan, load rate and bytes per record against record count, log-log.</summary>
    public static IReadOnlyList<Chart> Scale(IReadOnlyList<ScalePoint> points)
    {
        ArgumentNullException.ThrowIfNull(points);
        (string Id, string Label, Func<ScalePoint, WorkloadResult> Run, OperationType Type)[] latencies =
        [
            ("get", "Get", point => point.Get, OperationType.Read),
            ("put", "Put", point => point.Put, OperationType.Update),
            ("scan", "Scan of 1 to 100 records", point => point.Scan, OperationType.Scan),
        ];
        var charts = new List<Chart>();
        foreach ((string id, string label, Func<ScalePoint, WorkloadResult> run, OperationType type) in latencies)
        {
            TimeUnit unit = TimeUnit.ForLogScale(points.Select(point => run(point).Of(type)?.Latency.P50 ?? 0));
            charts.Add(
                ScaleChart(
                    points,
                    $"scale-{id}",
                    $"{label} median latency against records, one thread",
                    new ChartAxis($"{label} p50", unit.Symbol, AxisScale.Log),
                    point => unit.From(run(point).Of(type)?.Latency.P50)));
        }

        charts.Add(
            ScaleChart(
                points,
                "scale-load",
                "Load rate against records (batches of 1,000, then Flush)",
                new ChartAxis("Load rate", "records/s", AxisScale.Log),
                point => point.LoadRecordsPerSecond));
        // The memory floor has no files: no point rather than a 0 that a log axis cannot draw.
        charts.Add(
            ScaleChart(
                points,
                "scale-bytes",
                "Bytes on disk per record against records",
                new ChartAxis("Bytes on disk per record", "B", AxisScale.Log),
                point => point.BytesOnDisk == 0 ? null : point.BytesPerRecord));
        return charts;
    }

    private static Chart ScaleChart(IReadOnlyList<ScalePoint> points, string id, string title, ChartAxis y, Func<ScalePoint, double?> value) =>
        Chart.Pivot(
            points,
            series: point => point.Store,
            category: point => point.Records.ToString("N0", s_numbers),
            value,
            position: point => point.Records,
            new Chart
            {
                Id = id,
                Title = title,
                Tier = WorkloadTier(points.Select(point => point.Store)),
                Kind = ChartKind.Lines,
                X = new ChartAxis("Records loaded", "log scale", AxisScale.Log),
                Y = y,
                Outputs = ChartOutputs.Image,
            });

    private static IReadOnlyList<Chart> Benchmark(BenchmarkReport report, string id, string[] methods, string measure, string tier)
    {
        ArgumentNullException.ThrowIfNull(report);
        var cells = report.Rows
            .Select(row => (
                Method: report.Cell(row, "Method") ?? string.Empty,
                Row: report.Cell(row, "Type") ?? string.Empty,
                ValueBytes: report.Cell(row, "ValueBytes") ?? string.Empty,
                Acknowledged: report.Cell(row, AcknowledgedTier.ColumnName) ?? tier,
                Nanoseconds: BenchmarkReport.Nanoseconds(report.Cell(row, "Mean") ?? string.Empty)))
            .Where(cell => methods.Contains(cell.Method) && StoreCatalog.Names.Contains(cell.Row))
            .ToList();
        return [.. cells.GroupBy(cell => cell.ValueBytes).Select(size =>
        {
            return Times(
                size.OrderBy(cell => Array.IndexOf(methods, cell.Method)).Select(cell => (cell.Method, cell.Row, cell.Nanoseconds)),
                TimeUnit.For(size.Max(cell => cell.Nanoseconds ?? 0)),
                new Chart
                {
                    Id = $"{id}-{Slug(size.Key)}",
                    Title = $"{measure}, {size.Key}-byte values",
                    Tier = Chart.TierOf(size.Select(cell => (cell.Row, cell.Acknowledged))),
                    Kind = ChartKind.Bars,
                    X = new ChartAxis("Row", string.Empty),
                    // Log in the PNG, where the legend keeps three series apart across four orders of magnitude; Mermaid
                    // draws each series alone on a linear axis from 0.
                    Y = new ChartAxis(measure, string.Empty, AxisScale.Log),
                });
        })];
    }

    /// <summary>
    /// One latency chart per workload and operation, its figures picked by <paramref name="points"/>, in the unit
    /// <paramref name="unitFor"/> picks.
    /// </summary>
    /// <param name="results">The workload runs.</param>
    /// <param name="id">The id's first word; the workload and operation follow.</param>
    /// <param name="measure">What the title says the chart shows, after the workload and operation.</param>
    /// <param name="kind">Bars or lines.</param>
    /// <param name="x">The X axis.</param>
    /// <param name="y">The Y axis, its unit left to <paramref name="unitFor"/>.</param>
    /// <param name="outputs">Where it is drawn.</param>
    /// <param name="unitFor">The unit for a chart's latencies, in nanoseconds.</param>
    /// <param name="points">Each series, category and latency in nanoseconds an operation's result gives.</param>
    private static IReadOnlyList<Chart> PerOperation(
        IReadOnlyList<WorkloadResult> results,
        string id,
        string measure,
        ChartKind kind,
        ChartAxis x,
        ChartAxis y,
        ChartOutputs outputs,
        Func<IEnumerable<double>, TimeUnit> unitFor,
        Func<(WorkloadResult Result, OperationResult Operation), IEnumerable<(string Series, string Category, double Nanoseconds)>> points) =>
        [.. from result in results
            from operation in result.Operations
            group (Result: result, Operation: operation) by (result.Workload.Name, operation.Type) into @group
            let cells = @group.SelectMany(points).ToList()
            select Times(
                cells.Select(cell => (cell.Series, cell.Category, (double?)cell.Nanoseconds)),
                unitFor(cells.Select(cell => cell.Nanoseconds)),
                new Chart
                {
                    Id = $"{id}-{Slug(@group.Key.Name)}-{Slug(@group.Key.Type.ToString())}",
                    Title = $"{@group.Key.Name} {@group.Key.Type} {measure}, {@group.First().Result.Settings.Threads} threads",
                    Tier = WorkloadTier(@group.Select(item => item.Result)),
                    Kind = kind,
                    X = x,
                    Y = y,
                    Outputs = outputs,
                })];

    /// <summary>A chart of latencies, given in nanoseconds, drawn in <paramref name="unit"/>, which its Y axis then names.</summary>
    private static Chart Times(IEnumerable<(string Series, string Category, double? Nanoseconds)> cells, TimeUnit unit, Chart template) =>
        Chart.Pivot(
            cells, cell => cell.Series, cell => cell.Category, cell => unit.From(cell.Nanoseconds), position: null,
            template with { Y = template.Y with { Unit = unit.Symbol } });

    private static string WorkloadTier(IEnumerable<WorkloadResult> results) => WorkloadTier(results.Select(result => result.Store));

    /// <summary>The workload section loads and runs every row at Buffered durability.</summary>
    private static string WorkloadTier(IEnumerable<string> rows) => WorkloadTier(rows, Durability.Buffered);

    /// <summary>What a write of the workload suites had reached when <paramref name="rows"/> ran at <paramref name="tier"/>, for a chart title.</summary>
    internal static string WorkloadTier(IEnumerable<string> rows, Durability tier) =>
        Chart.TierOf(rows.Distinct().Select(row => (row, AcknowledgedTier.Label(row, tier))));

    /// <summary>"read-only" stays, "50/50" becomes "50-50": file names of letters, digits and '-'.</summary>
    internal static string Slug(string text) =>
        string.Concat(text.Select(character => char.IsAsciiLetterOrDigit(character) ? char.ToLowerInvariant(character) : '-')).Trim('-');
}
