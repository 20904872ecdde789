using System.Globalization;
using System.Text.RegularExpressions;

using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections.Capabilities;
using KvBench.Evaluation.Reports.Sections.PointOperations;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Reports.Charts;

/// <summary>
/// An ADR report built from results drawn from a fixed random stream of every kind the ADR file charts, spanning orders
/// of magnitude as real ones do.
/// </summary>
internal static class ChartReports
{
    private static readonly string[] s_rows = [SqliteRow.WalName, LmdbRow.RowName, FasterRow.RowName, MemoryRow.RowName];

    public static AdrReport Create(int stream)
    {
        var random = new Random(stream);
        double Nanoseconds() => 30 * Math.Pow(10, random.NextDouble() * 4);
        LatencySummary Latency()
        {
            double p50 = Nanoseconds();
            return new LatencySummary(10_000, p50 * 1.2, p50, p50 * 2.5, p50 * 6, p50 * 30, p50 * 90);
        }

        WorkloadResult Run(string row, WorkloadSpec workload, int threads) => new()
        {
            Store = row,
            Workload = workload,
            Settings = new RunSettings { Threads = threads },
            Elapsed = TimeSpan.FromSeconds(1),
            Operations = [.. Enum
                .GetValues<OperationType>()
                .Where(type => workload.Mix.Of(type) > 0)
                .Select(type => new OperationResult(type, 1e9 / Nanoseconds() * workload.Mix.Of(type), Latency()))],
        };

        SuiteSettings suites = SuiteSettings.Smoke;
        return new AdrReport
        {
            Sections =
            [
                new CapabilitiesSection(ProbeSettings.Quick),
                new BenchmarkSection
                {
                    PointOperations = Benchmark("PointOperations", s_rows, ["Put", "Get", "GetArray", "HaveKey"], [128, 1028], Nanoseconds),
                    SyncedPuts = Benchmark("SyncedPuts", [SqliteRow.WalName, LmdbRow.RowName], ["Put", "PutMany"], [128], () => Nanoseconds() * 100),
                },
                new WorkloadSection(suites)
                {
                    Ycsb = [.. s_rows.SelectMany(row => YcsbWorkloads.All.Select(workload => Run(row, workload, 4)))],
                    ThreadSweep = [
                        .. s_rows.SelectMany(row =>
                            suites.SweepMixes.SelectMany(mix => new[] { 1, 2, 4, 8 }.Select(threads => Run(row, mix, threads))))],
                    Scale = [.. s_rows.SelectMany(row => new long[] { 1_000, 10_000, 100_000 }.Select(records => new ScalePoint(
                        row,
                        records,
                        1e9 / Nanoseconds(),
                        row == MemoryRow.RowName ? 0 : (long)(records * (150 + (random.NextDouble() * 400))),
                        Run(row, new WorkloadSpec { Name = "get", Mix = OperationMix.ReadOnly }, 1),
                        Run(row, new WorkloadSpec { Name = "put", Mix = OperationMix.WriteOnly }, 1),
                        Run(row, new WorkloadSpec { Name = "scan-100", Mix = new(Scan: 1) }, 1))))],
                },
            ],
            Machine = new MachineInfo("Test CPU", 2, 8L << 30, "Debian GNU/Linux 12", ".NET 10", "ext4"),
            Command = "kvbench adr --quick",
            GeneratedAt = new DateTimeOffset(2026, 11, 22, 12, 0, 0, TimeSpan.Zero),
        };
    }

    /// <summary>A BenchmarkDotNet GitHub table of every row and its raw baseline, in ns and μs cells as BenchmarkDotNet writes them.</summary>
    private static BenchmarkReport Benchmark(string name, string[] rows, string[] methods, int[] sizes, Func<double> nanoseconds)
    {
        List<string> lines = ["| Method | Type | Acknowledged | ValueBytes | Mean | Op/s |", "|--- |--- |--- |---:|---:|---:|"];
        foreach (int size in sizes)
        {
            foreach (string row in rows.Concat([LmdbRow.RowName + "_raw"]))
            {
                foreach (string method in methods)
                {
                    double mean = nanoseconds();
                    string cell = mean < 10_000
                        ? mean.ToString("N2", CultureInfo.InvariantCulture) + " ns"
                        : (mean / 1000).ToString("N3", CultureInfo.InvariantCulture) + " \u03BCs";
                    string tier = row == MemoryRow.RowName
                        ? "memory only"
                        : row == FasterRow.RowName ? "memory until Flush" : name == "SyncedPuts" ? "Synced" : "Buffered";
                    lines.Add(string.Create(CultureInfo.InvariantCulture, $"| {method} | {row} | {tier} | {size} | {cell} | {1e9 / mean:N1} |"));
                }
            }
        }

        return BenchmarkReport.Parse($"KvBench.Benchmarks.{name}-report-github.md", lines, DateTime.UnixEpoch);
    }
}

/// <summary>A chart data file read back: its Y unit and every (category, series, value) it holds.</summary>
internal sealed record DataFile(string Unit, IReadOnlyList<(string Category, string Series, double Value)> Points)
{
    public static DataFile Read(string path)
    {
        string[] lines = File.ReadAllLines(path);
        // "# X: Threads (log scale); Y: Operations per second, all threads (ops/s)": the unit is the Y title's last parentheses.
        string yTitle = lines.Single(line => line.StartsWith("# X: ", StringComparison.Ordinal)).Split("; Y: ")[1];
        string unit = yTitle[(yTitle.LastIndexOf('(') + 1)..yTitle.LastIndexOf(')')];
        string[] series = lines.Single(line => line.StartsWith(GnuplotChart.ColumnsPrefix, StringComparison.Ordinal)).Split('\t')[2..];
        var points = new List<(string, string, double)>();
        foreach (string[] cells in lines.Where(line => !line.StartsWith('#')).Select(line => line.Split('\t')))
        {
            for (int i = 0; i < series.Length; i++)
            {
                if (cells[i + 2] != GnuplotChart.Missing)
                {
                    points.Add((cells[0], series[i], double.Parse(cells[i + 2], CultureInfo.InvariantCulture)));
                }
            }
        }

        return new DataFile(unit, points);
    }
}

/// <summary>
/// The ADR table a chart is drawn from, and where in it each of the chart's figures is: a chart's series and category
/// name a row and a column. Read from the markdown the reader sees, not from the objects the charts were built from.
/// </summary>
internal sealed partial class TableSource
{
    private readonly string[] _headers;
    private readonly List<string[]> _rows;
    private readonly Func<TableSource, string[], bool> _inChart;
    private readonly Func<TableSource, string[], string, string, bool> _matches;
    private readonly Func<string, string, string> _column;
    private readonly Func<TableSource, string[], IEnumerable<string>> _charted;

    private TableSource(
        string markdown, string heading, Func<TableSource, string[], bool> inChart, Func<TableSource, string[], string,
        string, bool> matches, Func<string, string, string> column, Func<TableSource, string[],
        IEnumerable<string>> charted)
    {
        (_headers, _rows) = ReadTable(markdown, heading);
        _inChart = inChart;
        _matches = matches;
        _column = column;
        _charted = charted;
    }

    /// <summary>How many cells of the table the chart must hold: every measured cell of the rows it covers.</summary>
    public int CellCount => _rows.Where(row => _inChart(this, row)).Sum(row => _charted(this, row).Count(cell => cell != "-"));

    /// <summary>The source of the data file of chart <paramref name="id"/>.</summary>
    public static TableSource For(string id, string markdown) => id switch
    {
        _ when id.StartsWith("point-operations-", StringComparison.Ordinal) =>
            Benchmark(markdown, "### PointOperations", id["point-operations-".Length..], ["Put", "Get", "HaveKey"]),
        _ when id.StartsWith("synced-puts-", StringComparison.Ordinal) =>
            Benchmark(markdown, "### SyncedPuts", id["synced-puts-".Length..], ["Put", "PutMany"]),
        _ when id.StartsWith("threads-", StringComparison.Ordinal) => Threads(markdown, id["threads-".Length..]),
        _ when id.StartsWith("latency-", StringComparison.Ordinal) =>
            Ycsb(markdown, id["latency-".Length..], ["p50", "p95", "p99", "p99.9"], rowIsSeries: true),
        _ when id.StartsWith("scale-", StringComparison.Ordinal) => Scale(markdown, id["scale-".Length..]),
        _ => throw new InvalidOperationException($"No table is known for chart '{id}': name the table it is drawn from here."),
    };

    /// <summary>The source of a Mermaid block whose title, before its series, is <paramref name="chartTitle"/>.</summary>
    public static TableSource ForMermaid(string chartTitle, string markdown)
    {
        if (MeanTitle().Match(chartTitle) is { Success: true } mean)
        {
            return mean.Groups["measure"].Value == "call"
                ? Benchmark(markdown, "### PointOperations", mean.Groups["size"].Value, ["Put", "Get", "HaveKey"])
                : Benchmark(markdown, "### SyncedPuts", mean.Groups["size"].Value, ["Put", "PutMany"]);
        }

        if (ThreadsTitle().Match(chartTitle) is { Success: true } threads)
        {
            return Threads(markdown, AdrCharts.Slug(threads.Groups["mix"].Value));
        }

        Match p99 = P99Title().Match(chartTitle);
        return p99.Success
            ? Ycsb(markdown, $"{AdrCharts.Slug(p99.Groups["workload"].Value)}-{p99.Groups["operation"].Value.ToLowerInvariant()}", ["p99"], rowIsSeries: false)
            : throw new InvalidOperationException($"No table is known for the Mermaid chart '{chartTitle}'.");
    }

    /// <summary>The cell holding the figure the chart draws for <paramref name="series"/> at <paramref name="category"/>.</summary>
    public string Cell(string series, string category)
    {
        string[][] rows = [.. _rows.Where(row => _inChart(this, row) && _matches(this, row, series, category))];
        Assert.True(rows.Length == 1, $"{rows.Length} table rows hold {series} at {category}");
        return rows[0][Index(_column(series, category))];
    }

    private string Get(string[] row, string column) => row[Index(column)];

    private int Index(string column)
    {
        int index = Array.IndexOf(_headers, column);
        Assert.True(index >= 0, $"The table has no column '{column}' ({string.Join(", ", _headers)})");
        return index;
    }

    private static TableSource Benchmark(string markdown, string heading, string size, string[] methods) => new(
        markdown,
        heading,
        (table, row) =>
            table.Get(row, "ValueBytes") == size
                && methods.Contains(table.Get(row, "Method"))
                && StoreCatalog.Names.Contains(table.Get(row, "Type")),
        (table, row, series, category) => table.Get(row, "Method") == series && table.Get(row, "Type") == category,
        (_, _) => "Mean",
        (table, row) => [table.Get(row, "Mean")]);

    private static TableSource Threads(string markdown, string mixSlug) => new(
        markdown,
        "### Threads",
        (table, row) => AdrCharts.Slug(table.Get(row, "Mix")) == mixSlug,
        (table, row, series, _) => table.Get(row, "Row") == series,
        (_, category) => string.Create(CultureInfo.InvariantCulture, $"{category} thread{(category == "1" ? string.Empty : "s")} (ops/s)"),
        (table, row) =>
            table._headers
                .Select((header, i) => (header, i))
                .Where(column => column.header.EndsWith("(ops/s)", StringComparison.Ordinal))
                .Select(column => row[column.i]));

    private static TableSource Ycsb(string markdown, string workloadAndOperation, string[] percentiles, bool rowIsSeries) => new(
        markdown,
        "### YCSB core workloads",
        (table, row) => $"{AdrCharts.Slug(table.Get(row, "Workload"))}-{table.Get(row, "Operation").ToLowerInvariant()}" == workloadAndOperation,
        (table, row, series, category) => table.Get(row, "Row") == (rowIsSeries ? series : category),
        (series, category) => rowIsSeries ? category : series,
        (table, row) => percentiles.Select(percentile => table.Get(row, percentile)));

    private static TableSource Scale(string markdown, string measure)
    {
        string column = measure switch
        {
            "get" => "Get p50",
            "put" => "Put p50",
            "scan" => "Scan 1-100 p50",
            "load" => "Load (records/s)",
            "bytes" => "Bytes on disk per record",
            _ => throw new InvalidOperationException($"No scale column is known for '{measure}'."),
        };
        return new(
            markdown,
            "### Scale",
            (_, _) => true,
            (table, row, series, category) => table.Get(row, "Row") == series && table.Get(row, "Records") == category,
            (_, _) => column,
            (table, row) => [table.Get(row, column)]);
    }

    /// <summary>The first table after <paramref name="heading"/>, in the "a | b |" / "---|---|" shape the ADR file writes.</summary>
    private static (string[] Headers, List<string[]> Rows) ReadTable(string markdown, string heading)
    {
        string[] lines = markdown.Split('\n').Select(line => line.TrimEnd('\r')).ToArray();
        int start = Array.IndexOf(lines, heading);
        Assert.True(start >= 0, $"The ADR file has no '{heading}' section");
        int header = Enumerable.Range(start, lines.Length - start - 1).First(i => lines[i + 1].StartsWith("---|", StringComparison.Ordinal));
        return (Cells(lines[header]), [.. lines.Skip(header + 2).TakeWhile(line => line.EndsWith(" |", StringComparison.Ordinal)).Select(Cells)]);
    }

    private static string[] Cells(string line) => [.. line[..^2].Split(" | ").Select(cell => cell.Trim())];

    [GeneratedRegex("^Mean time per (?<measure>call|item), (?<size>[0-9]+)-byte values")]
    private static partial Regex MeanTitle();

    [GeneratedRegex("^Operations per second against threads, (?<mix>.+)$")]
    private static partial Regex ThreadsTitle();

    [GeneratedRegex("^(?<workload>\\S+) (?<operation>\\S+) p99 latency per row")]
    private static partial Regex P99Title();
}
