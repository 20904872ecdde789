using System.Buffers.Binary;
using System.Globalization;
using System.Text.RegularExpressions;

using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;


namespace KvBench.Tests.Evaluation.Reports.Charts;

/// <summary>
/// The ADR file's charts against its tables: an ADR written from results drawn from a fixed random stream, its PNGs drawn by the real gnuplot,
/// then every data file and every Mermaid block read back and each figure found in the table it is drawn from.
/// </summary>
[Trait("Category", "Charts")]
public sealed partial class ChartTests
{
    [Fact]
    public async Task Every_chart_data_file_matches_its_table_and_every_png_has_the_drawn_size()
    {
        using var directory = new TempDirectory();
        AdrReport report = ChartReports.Create(stream: 14);
        string markdownFile = directory.Combine("adr.md");

        ChartImages images = await report.WriteAsync(markdownFile);

        Assert.Null(images.Problem);
        string markdown = await File.ReadAllTextAsync(markdownFile);
        string folder = ChartFiles.FolderFor(markdownFile);
        Chart[] imageCharts = [.. report.Charts().Where(chart => chart.Outputs.HasFlag(ChartOutputs.Image))];
        Assert.Equal(imageCharts.Select(chart => chart.Id).Order(), images.Images.Order());
        Assert.Contains(imageCharts, chart => chart.Id.StartsWith("point-operations-", StringComparison.Ordinal));
        Assert.Contains(imageCharts, chart => chart.Id.StartsWith("threads-", StringComparison.Ordinal));
        Assert.Contains(imageCharts, chart => chart.Id.StartsWith("latency-", StringComparison.Ordinal));
        Assert.Contains(imageCharts, chart => chart.Id.StartsWith("scale-", StringComparison.Ordinal));
        foreach (Chart chart in imageCharts)
        {
            (int width, int height) = PngSize(Path.Combine(folder, chart.Id + ".png"));
            Assert.Equal((GnuplotChart.Width, GnuplotChart.Height), (width, height));
            // The link works from the markdown file's own folder, as it does once both are copied into docs/adr.
            Assert.Contains($"]({Path.GetFileName(folder)}/{chart.Id}.png)", markdown, StringComparison.Ordinal);

            DataFile data = DataFile.Read(Path.Combine(folder, chart.Id + ".dat"));
            TableSource source = TableSource.For(chart.Id, markdown);
            int checkedCells = 0;
            foreach ((string category, string series, double value) in data.Points)
            {
                string cell = source.Cell(series, category);
                AssertSame(cell, value, data.Unit, $"{chart.Id}.dat {series} at {category}");
                checkedCells++;
            }

            Assert.Equal(source.CellCount, checkedCells);
        }
    }

    [Fact]
    public async Task Every_mermaid_block_matches_its_table()
    {
        using var directory = new TempDirectory();
        AdrReport report = ChartReports.Create(stream: 15);
        string markdownFile = directory.Combine("adr.md");
        await report.WriteAsync(markdownFile);
        string markdown = await File.ReadAllTextAsync(markdownFile);

        MatchCollection blocks = MermaidBlock().Matches(markdown);

        int expected = report
            .Charts()
            .Where(chart => chart.Outputs.HasFlag(ChartOutputs.Markdown))
            .Sum(chart => chart.Series.Count(series => series.Values.Any(value => value is not null)));
        Assert.Equal(expected, blocks.Count);
        Assert.Contains(blocks, block => block.Groups["title"].Value.StartsWith("Mean time per call, 128-byte values", StringComparison.Ordinal));
        Assert.Contains(blocks, block => block.Groups["title"].Value.StartsWith("Operations per second against threads", StringComparison.Ordinal));
        Assert.Contains(blocks, block => block.Groups["title"].Value.Contains("p99 latency per row", StringComparison.Ordinal));
        // A bar of a row that held its writes in memory never stands beside Buffered ones without the chart saying so.
        Assert.All(blocks.Where(block => block.Value.Contains("FASTER", StringComparison.Ordinal)), block =>
            Assert.Contains("FASTER: memory until Flush", block.Groups["tier"].Value, StringComparison.Ordinal));
        Assert.Contains(blocks, block => block.Groups["tier"].Value == "Synced");
        foreach (Match block in blocks)
        {
            Match title = MermaidTitle().Match(block.Groups["title"].Value);
            Assert.True(title.Success, block.Value);
            string[] categories = [.. Quoted().Matches(block.Groups["x"].Value).Select(match => match.Groups[1].Value)];
            double[] values = [.. block.Groups["values"].Value.Split(',').Select(value => double.Parse(value, CultureInfo.InvariantCulture))];
            Assert.Equal(categories.Length, values.Length);
            Assert.True(values.Max() <= double.Parse(block.Groups["top"].Value, CultureInfo.InvariantCulture), block.Value);
            TableSource source = TableSource.ForMermaid(title.Groups["chart"].Value, markdown);
            for (int i = 0; i < categories.Length; i++)
            {
                AssertSame(source.Cell(title.Groups["series"].Value, categories[i]), values[i], block.Groups["unit"].Value, block.Groups["title"].Value);
            }
        }
    }

    [Fact]
    public async Task Without_gnuplot_the_markdown_and_data_files_are_written_and_one_line_says_why()
    {
        using var directory = new TempDirectory();
        AdrReport report = ChartReports.Create(stream: 16);
        string markdownFile = directory.Combine("adr.md");

        ChartImages images = await report.WriteAsync(markdownFile, gnuplot: directory.Combine("no-such-gnuplot"));

        Assert.Empty(images.Images);
        Assert.NotNull(images.Problem);
        Assert.DoesNotContain('\n', images.Problem);
        Assert.Contains("gnuplot is not installed", images.Problem, StringComparison.Ordinal);
        string markdown = await File.ReadAllTextAsync(markdownFile);
        Assert.Contains("```mermaid", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain(".png)", markdown, StringComparison.Ordinal);
        Assert.All(report.Charts().Where(chart => chart.Outputs.HasFlag(ChartOutputs.Image)), chart =>
        {
            Assert.True(File.Exists(Path.Combine(ChartFiles.FolderFor(markdownFile), chart.Id + ".dat")));
            Assert.False(File.Exists(Path.Combine(ChartFiles.FolderFor(markdownFile), chart.Id + ".png")));
        });
    }

    [Theory]
    [InlineData(5, 5)]
    [InlineData(120, GnuplotChart.MaxLabelledTics / 2)]
    public void A_line_chart_has_a_tic_for_every_category_and_labels_at_most_a_readable_number(int categories, int leastLabelled)
    {
        Chart chart = Chart.Pivot(
            Enumerable.Range(0, categories),
            series: _ => "Row",
            category: i => (i * 0.05).ToString("0.##", CultureInfo.InvariantCulture),
            value: i => i,
            position: i => i * 0.05,
            new Chart
            {
                Id = "over-time",
                Title = "Over time",
                Tier = "Buffered",
                Kind = ChartKind.Lines,
                X = new ChartAxis("s", "s"),
                Y = new ChartAxis("v", "v"),
            });

        string xtics = GnuplotChart.Script(chart, "test machine").Split('\n').Single(line => line.StartsWith("set xtics (", StringComparison.Ordinal));

        Assert.Equal(categories, Regex.Count(xtics, "\"[^\"]*\" [0-9.]+"));
        Assert.InRange(Regex.Count(xtics, "\"[^\"]+\" [0-9.]+"), Math.Min(leastLabelled, categories), GnuplotChart.MaxLabelledTics);
    }

    [Fact]
    public async Task A_gnuplot_that_hangs_is_killed_at_the_deadline_and_said_in_one_line()
    {
        using var directory = new TempDirectory();
        string hanging = await FakeGnuplotAsync(directory, "sleep 60");
        Chart[] charts = [.. ChartReports.Create(stream: 17).Charts().Where(chart => chart.Outputs.HasFlag(ChartOutputs.Image)).Take(3)];

        ChartImages images = await ChartFiles.WriteAsync(charts, directory.Combine("charts"), "test machine", hanging, TimeSpan.FromMilliseconds(500));

        Assert.Empty(images.Images);
        Assert.NotNull(images.Problem);
        Assert.DoesNotContain('\n', images.Problem);
        Assert.Contains("was killed", images.Problem, StringComparison.Ordinal);
        Assert.All(charts, chart => Assert.True(File.Exists(Path.Combine(directory.Combine("charts"), chart.Id + ".dat"))));
    }

    [Fact]
    public async Task A_gnuplot_that_fails_is_said_in_one_line_with_its_first_error()
    {
        using var directory = new TempDirectory();
        string failing = await FakeGnuplotAsync(directory, "echo 'line 7: unknown terminal' >&2\necho 'second line' >&2\nexit 1");
        Chart[] charts = [.. ChartReports.Create(stream: 18).Charts().Where(chart => chart.Outputs.HasFlag(ChartOutputs.Image)).Take(2)];

        ChartImages images = await ChartFiles.WriteAsync(charts, directory.Combine("charts"), "test machine", failing);

        Assert.Empty(images.Images);
        Assert.Equal($"PNG chart not drawn: gnuplot {charts[0].Id}.gp exited with 1: line 7: unknown terminal (2 charts not drawn in all)", images.Problem);
    }

    [Theory]
    [InlineData(0.0361, 0.05)]
    [InlineData(15.26, 20)]
    [InlineData(201.69, 250)]
    [InlineData(2_335_943, 2_500_000)]
    [InlineData(1000, 1000)]
    public void A_mermaid_axis_ends_at_a_round_number_at_or_above_the_largest_value(double largest, double top) =>
        Assert.Equal(top, MermaidChart.NiceCeiling(largest), 9);

    [Fact]
    public void A_value_is_written_without_exponent_or_separators_so_mermaid_reads_it() =>
        Assert.Equal(["0.0000361", "2335943.25"], [Chart.Number(3.61e-5), Chart.Number(2_335_943.25)]);

    [Fact]
    public void A_chart_title_names_the_rows_whose_writes_were_not_buffered() =>
        Assert.Equal(
            "Buffered; FASTER: memory until Flush; Memory: memory only",
            Chart.TierOf([("LMDB", "Buffered"), ("FASTER", "memory until Flush"), ("Sqlite_WAL", "Buffered"), ("Memory", "memory only")]));

    [Fact]
    public void Benchmark_time_cells_are_read_in_every_unit_BenchmarkDotNet_writes() =>
        Assert.Equal(
            [15_261.24, 688_998, 1_200_000, 3.5],
            [
                BenchmarkReport.Nanoseconds("15,261.24 ns")!.Value,
                BenchmarkReport.Nanoseconds("688.998 \u03BCs")!.Value,
                BenchmarkReport.Nanoseconds("1.2 ms")!.Value,
                BenchmarkReport.Nanoseconds("3.5 ns")!.Value]);

    /// <summary>
    /// <paramref name="value"/>, in <paramref name="unit"/>, is the figure <paramref name="cell"/> prints, to the precision
    /// the cell prints it with (half its last digit).
    /// </summary>
    private static void AssertSame(string cell, double value, string unit, string what)
    {
        Match quantity = CellQuantity().Match(cell);
        Assert.True(quantity.Success, $"{what}: the table cell '{cell}' is not a number");
        string digits = quantity.Groups["number"].Value.Replace(",", string.Empty, StringComparison.Ordinal);
        int decimals = digits.Contains('.', StringComparison.Ordinal) ? digits.Length - digits.IndexOf('.', StringComparison.Ordinal) - 1 : 0;
        double cellUnit = quantity.Groups["unit"].Success ? TimeUnit.Parse(quantity.Groups["unit"].Value).Nanoseconds : 1;
        double chartUnit = TimeUnit.TryParse(unit)?.Nanoseconds ?? 1;
        double expected = double.Parse(digits, CultureInfo.InvariantCulture) * cellUnit;
        double tolerance = (0.5 * Math.Pow(10, -decimals) * cellUnit) + (1e-9 * Math.Abs(expected));
        Assert.True(Math.Abs((value * chartUnit) - expected) <= tolerance, $"{what}: the chart has {value} {unit}, the table '{cell}'");
    }

    /// <summary>A shell script standing in for gnuplot, running <paramref name="body"/>.</summary>
    private static async Task<string> FakeGnuplotAsync(TempDirectory directory, string body)
    {
        string path = directory.Combine("gnuplot");
        await File.WriteAllTextAsync(path, $"#!/bin/sh\n{body}\n");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        return path;
    }

    private static (int Width, int Height) PngSize(string path)
    {
        byte[] header = new byte[24];
        using (FileStream file = File.OpenRead(path))
        {
            file.ReadExactly(header);
        }

        // The PNG signature, then the IHDR chunk: length, "IHDR", width and height as big-endian 32-bit integers.
        Assert.Equal([0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A], header[..8]);
        Assert.Equal("IHDR", System.Text.Encoding.ASCII.GetString(header, 12, 4));
        return (BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(16)), BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(20)));
    }

    [
        GeneratedRegex(
            "```mermaid\\nxychart-beta\\n    title \"(?<title>[^\"]*)\"\\n    x-axis \"[^\"]*; acknowledged: " +
                "(?<tier>[^\"]+)\" \\[(?<x>[^\\]]*)\\]\\n    y-axis \"[^\"]*\\((?<unit>[^)]*)\\), linear from 0\" 0 " +
                "--> (?<top>[0-9.]+)\\n    (bar|line) \\[(?<values>[^\\]]*)\\]\\n```")]
    private static partial Regex MermaidBlock();

    [GeneratedRegex("^(?<chart>.+): (?<series>[^:]+)$")]
    private static partial Regex MermaidTitle();

    [GeneratedRegex("\"([^\"]*)\"")]
    private static partial Regex Quoted();

    [GeneratedRegex("^(?<number>-?[0-9][0-9,]*(\\.[0-9]+)?)( (?<unit>ns|µs|\u03BCs|us|ms|s))?$")]
    private static partial Regex CellQuantity();
}
