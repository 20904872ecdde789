using System.Globalization;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>How a chart draws its series.</summary>
public enum ChartKind
{
    /// <summary>One bar per category and series: categories are names (rows, workloads), not quantities.</summary>
    Bars,

    /// <summary>One line per series through its points, in category order.</summary>
    Lines,
}

/// <summary>How an axis maps values to distance.</summary>
public enum AxisScale
{
    /// <summary>Equal steps for equal differences.</summary>
    Linear,

    /// <summary>Equal steps for equal ratios: for values that span orders of magnitude (latency tails, record counts).</summary>
    Log,
}

/// <summary>Where a chart is drawn.</summary>
[Flags]
public enum ChartOutputs
{
    /// <summary>As Mermaid <c>xychart-beta</c> blocks in the markdown, one per series (Mermaid draws no legend).</summary>
    Markdown = 1,

    /// <summary>As a PNG drawn by gnuplot from a data file written beside it.</summary>
    Image = 2,

    /// <summary>Both.</summary>
    Both = Markdown | Image,
}

/// <summary>An axis: what it measures, in which unit, on which scale.</summary>
/// <param name="Label">What the axis measures ("Mean time per call").</param>
/// <param name="Unit">The unit its values are in ("µs", "ops/s", "threads"); the values of a chart are in this unit.</param>
/// <param name="Scale">Linear or logarithmic.</param>
public sealed record ChartAxis(string Label, string Unit, AxisScale Scale = AxisScale.Linear)
{
    /// <summary>"Mean time per call (µs)": the label with its unit, as an axis title; the label alone for names (rows).</summary>
    public string Title => Unit.Length == 0 ? Label : $"{Label} ({Unit})";
}

/// <summary>One named series: a value per category of its chart, or <see langword="null"/> where it has none.</summary>
/// <param name="Name">What the series is ("LMDB", "Put").</param>
/// <param name="Values">One value per <see cref="Chart.Categories"/> entry, in the chart's Y unit.</param>
public sealed record ChartSeries(string Name, IReadOnlyList<double?> Values);

/// <summary>
/// A chart drawn from one table's figures: categories along X (row names, thread counts, record counts), one value per
/// category for each series, axes with units. The same object is rendered as Mermaid (<see cref="MermaidChart"/>) and as
/// a gnuplot data file and script (<see cref="GnuplotChart"/>), so the two pictures cannot disagree.
/// </summary>
public sealed record Chart
{
    /// <summary>The file name stem of its data file and image ("threads-read-only"): letters, digits and '-' only.</summary>
    public required string Id { get; init; }

    /// <summary>What it shows ("Operations per second against threads, read-only").</summary>
    public required string Title { get; init; }

    /// <summary>What an acknowledged write had reached in the measured runs ("Buffered; FASTER: memory until Flush").</summary>
    public required string Tier { get; init; }

    /// <summary>Bars or lines.</summary>
    public required ChartKind Kind { get; init; }

    /// <summary>The categories' axis.</summary>
    public required ChartAxis X { get; init; }

    /// <summary>The values' axis.</summary>
    public required ChartAxis Y { get; init; }

    /// <summary>The X labels, in drawing order (<see cref="Pivot"/> fills them from the results).</summary>
    public IReadOnlyList<string> Categories { get; init; } = [];

    /// <summary>
    /// Where each category sits on a numeric X axis (thread counts, record counts), or <see langword="null"/> when the
    /// categories are names, evenly spaced.
    /// </summary>
    public IReadOnlyList<double>? Positions { get; init; }

    /// <summary>The series, in legend order (<see cref="Pivot"/> fills them from the results).</summary>
    public IReadOnlyList<ChartSeries> Series { get; init; } = [];

    /// <summary>Where it is drawn.</summary>
    public ChartOutputs Outputs { get; init; } = ChartOutputs.Both;

    /// <summary>
    /// Builds a chart from any sequence of results: one series per distinct <paramref name="series"/>, one category per
    /// distinct <paramref name="category"/>, both in first-seen order, each cell the <paramref name="value"/> of the item
    /// that has it. This is what makes a new table's chart a few lines: name what goes where, from the table's own results.
    /// </summary>
    /// <param name="items">The results the table is printed from.</param>
    /// <param name="series">The series an item belongs to.</param>
    /// <param name="category">The category an item belongs to.</param>
    /// <param name="value">The item's value in the chart's Y unit, or <see langword="null"/> when it has none.</param>
    /// <param name="position">Where a category sits on a numeric X axis, or <see langword="null"/> for named categories.</param>
    /// <param name="template">Everything else: id, title, tier, kind, axes (its categories and series are replaced).</param>
    public static Chart Pivot<T>(
        IEnumerable<T> items, Func<T, string> series, Func<T, string> category, Func<T, double?> value, Func<T,
        double>? position, Chart template)
    {
        ArgumentNullException.ThrowIfNull(template);
        List<T> list = [.. items];
        string[] categories = [.. list.Select(category).Distinct()];
        string[] names = [.. list.Select(series).Distinct()];
        var cells = list.GroupBy(item => (series(item), category(item))).ToDictionary(group => group.Key, group => value(group.First()));
        return template with
        {
            Categories = categories,
            Positions = position is null ? null : [.. categories.Select(label => position(list.First(item => category(item) == label)))],
            Series = [.. names.Select(name => new ChartSeries(name, [.. categories.Select(label => cells.GetValueOrDefault((name, label)))]))],
        };
    }

    /// <summary>
    /// A value as the data files and Mermaid blocks write it: invariant, no thousands separators and no exponent (Mermaid
    /// reads plain decimals only), ten decimals, far finer than any measurement here.
    /// </summary>
    public static string Number(double value) => value.ToString("0.##########", CultureInfo.InvariantCulture);

    /// <summary>
    /// What an acknowledged write had reached, for a chart title: the label most rows share, then each row that differs
    /// ("Buffered; FASTER: memory until Flush; Memory: memory only"), so no chart sets a memory-only bar beside Buffered
    /// ones without saying so.
    /// </summary>
    /// <param name="rows">Each row and its <see cref="Measuring.AcknowledgedTier"/> label.</param>
    public static string TierOf(IEnumerable<(string Row, string Label)> rows)
    {
        List<(string Row, string Label)> distinct = [.. rows.Distinct()];
        string? common = distinct.GroupBy(row => row.Label).OrderByDescending(group => group.Count()).Select(group => group.Key).FirstOrDefault();
        return common is null
            ? "-"
            : string.Join("; ", [common, .. distinct.Where(row => row.Label != common).Select(row => $"{row.Row}: {row.Label}")]);
    }
}

/// <summary>A unit of time to draw nanosecond figures in, picked so the largest value reads as a plain number.</summary>
/// <param name="Symbol">"ns", "µs", "ms" or "s".</param>
/// <param name="Nanoseconds">Nanoseconds in one unit.</param>
public sealed record TimeUnit(string Symbol, double Nanoseconds)
{
    private static readonly TimeUnit[] s_units = [new("ns", 1), new("µs", 1e3), new("ms", 1e6), new("s", 1e9)];

    /// <summary>The largest unit in which <paramref name="largestNanoseconds"/> is at least 1 (ns for nothing at all).</summary>
    public static TimeUnit For(double largestNanoseconds) => s_units.LastOrDefault(unit => largestNanoseconds >= unit.Nanoseconds) ?? s_units[0];

    /// <summary>
    /// The unit of the middle value of <paramref name="nanoseconds"/>: on a log axis that spans orders of magnitude the
    /// tic labels then read 0.1 to 1000 rather than 0.0001 to 1.
    /// </summary>
    public static TimeUnit ForLogScale(IEnumerable<double> nanoseconds)
    {
        double[] sorted = [.. nanoseconds.Where(value => value > 0).Order()];
        return For(sorted.Length == 0 ? 0 : sorted[sorted.Length / 2]);
    }

    /// <summary>The unit named <paramref name="symbol"/> ("us" and "μs", BenchmarkDotNet's spellings, included).</summary>
    /// <exception cref="FormatException"><paramref name="symbol"/> names no unit of time.</exception>
    public static TimeUnit Parse(string symbol) => TryParse(symbol) ?? throw new FormatException($"'{symbol}' is not a unit of time.");

    /// <summary>The unit named <paramref name="symbol"/>, or <see langword="null"/> when it names no unit of time ("ops/s").</summary>
    public static TimeUnit? TryParse(string symbol) => symbol switch
    {
        "us" or "\u03BCs" => s_units[1],
        _ => s_units.SingleOrDefault(unit => unit.Symbol == symbol),
    };

    /// <summary><paramref name="nanoseconds"/> in this unit.</summary>
    public double? From(double? nanoseconds) => nanoseconds / Nanoseconds;
}
