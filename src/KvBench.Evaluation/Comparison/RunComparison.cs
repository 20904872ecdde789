using System.Globalization;
using System.Text;

using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports;

namespace KvBench.Evaluation.Comparison;

/// <summary>What a comparison says of one cell both runs hold.</summary>
public enum ChangeVerdict
{
    /// <summary>No change past the threshold is shown: the medians differ by less, or the ratio's interval holds no change.</summary>
    Same,

    /// <summary>Better past the threshold: the whole interval of the ratio lies past it.</summary>
    Faster,

    /// <summary>Worse past the threshold: the whole interval of the ratio lies past it.</summary>
    Slower,

    /// <summary>
    /// The medians differ by more than the threshold, but the runs do not tell whether by that much: the ratio's interval
    /// reaches inside the threshold without holding no change, or a run's spread is unknown.
    /// </summary>
    Undecided,
}

/// <summary>One cell both runs hold, with the ratio of their medians and the verdict.</summary>
/// <param name="Base">The first run's cell.</param>
/// <param name="New">The second run's cell.</param>
/// <param name="Verdict">What the change is.</param>
public sealed record CellChange(ResultCell Base, ResultCell New, ChangeVerdict Verdict)
{
    /// <summary>The new median over the base median.</summary>
    public double Ratio => New.Value / Base.Value;

    /// <summary>Whether both runs give the cell a spread: each has two intervals or more.</summary>
    public bool SpreadKnown => Base.Samples > 1 && New.Samples > 1;

    /// <summary>
    /// How far the ratios of every cell of this metric scatter around their median, as a standard deviation of their
    /// logarithms (1.4826 times the median absolute deviation, which most cells changing by the same or a few cells
    /// changing a lot do not move); 0 when too few cells share the metric to say.
    /// </summary>
    /// <remarks>
    /// A run's intervals are a few tenths of a second of one window; what differs between two runs' windows (the
    /// machine's load in that minute, where a checkpoint fell, which thread held a core) moves a cell by more than its
    /// intervals vary. Two runs of one commit differ cell by cell by this scatter, so it is part of every cell's interval.
    /// </remarks>
    public double Scatter { get; init; }

    /// <summary>
    /// The low end of the ratio's interval: each run's distance below and above its median and the cells' scatter
    /// (<see cref="Scatter"/>, to 95%), in logarithms, added as independent errors add (the root of their squares), not
    /// end to end, which would read two runs' worst intervals as if they always fell together.
    /// </summary>
    public double LowRatio => Ratio / Math.Exp(Hypot(Math.Log(New.Value / New.Low), Math.Log(Base.High / Base.Value), ScatterReach));

    /// <summary>The high end of the ratio's interval (see <see cref="LowRatio"/>).</summary>
    public double HighRatio => Ratio * Math.Exp(Hypot(Math.Log(New.High / New.Value), Math.Log(Base.Value / Base.Low), ScatterReach));

    /// <summary>The scatter's reach at 95%, as the normal's 1.96 standard deviations.</summary>
    private double ScatterReach => 1.96 * Scatter;

    private static double Hypot(double a, double b, double c) => Math.Sqrt((a * a) + (b * b) + (c * c));
}

/// <summary>
/// Two runs set side by side, cell by cell: the ratio of each cell both hold, a verdict under a threshold, and the
/// cells only one holds. A verdict of faster or slower needs the whole interval of the ratio past the threshold, so the
/// spread of a run never reads as a change; a change past the threshold inside that spread is undecided.
/// </summary>
public sealed class RunComparison
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Cells of one metric below which their medians say nothing of the runs' reach or the machine.</summary>
    private const int MinimumCellsForASpread = 8;

    private RunComparison(
        IReadOnlyList<CellChange> changes, IReadOnlyList<ResultCell> onlyInBase, IReadOnlyList<ResultCell> onlyInNew, double threshold,
        IReadOnlyList<(string Fact, string? Base, string? New)> differences)
    {
        Differences = differences;
        Changes = changes;
        OnlyInBase = onlyInBase;
        OnlyInNew = onlyInNew;
        Threshold = threshold;
    }

    /// <summary>The cells both runs hold, in the base run's order.</summary>
    public IReadOnlyList<CellChange> Changes { get; }

    /// <summary>Cells only the base run holds.</summary>
    public IReadOnlyList<ResultCell> OnlyInBase { get; }

    /// <summary>Cells only the new run holds.</summary>
    public IReadOnlyList<ResultCell> OnlyInNew { get; }

    /// <summary>The share a median must move by to be a change: 0.05 for 5%.</summary>
    public double Threshold { get; }

    /// <summary>
    /// What the two results files say differently of their runs (KvBench's version, the machine, an engine), each with
    /// the base's and the new value, <see langword="null"/> where a file does not say: what may explain a change.
    /// </summary>
    public IReadOnlyList<(string Fact, string? Base, string? New)> Differences { get; }

    /// <summary>Whether any cell is slower.</summary>
    public bool Regressed => Changes.Any(change => change.Verdict == ChangeVerdict.Slower);

    /// <summary>
    /// Compares the cells of <paramref name="baseRun"/> with those of <paramref name="newRun"/> under
    /// <paramref name="threshold"/>, and lists what the two files say differently of their runs.
    /// </summary>
    public static RunComparison Compare(ComparedRun baseRun, ComparedRun newRun, double threshold)
    {
        ArgumentNullException.ThrowIfNull(baseRun);
        ArgumentNullException.ThrowIfNull(newRun);
        RunComparison cells = Compare(baseRun.Cells, newRun.Cells, threshold);
        List<(string, string?, string?)> differences = [.. baseRun.Facts.Keys
            .Union(newRun.Facts.Keys)
            .Select(fact => (fact, baseRun.Facts.GetValueOrDefault(fact), newRun.Facts.GetValueOrDefault(fact)))
            .Where(fact => fact.Item2 != fact.Item3)];
        return new RunComparison(cells.Changes, cells.OnlyInBase, cells.OnlyInNew, threshold, differences);
    }

    /// <summary>Compares <paramref name="baseCells"/> with <paramref name="newCells"/> under <paramref name="threshold"/> (a share above 0).</summary>
    public static RunComparison Compare(IReadOnlyList<ResultCell> baseCells, IReadOnlyList<ResultCell> newCells, double threshold)
    {
        ArgumentNullException.ThrowIfNull(baseCells);
        ArgumentNullException.ThrowIfNull(newCells);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(threshold);
        Dictionary<string, ResultCell> news = newCells.ToDictionary(cell => cell.Key);
        HashSet<string> bases = [.. baseCells.Select(cell => cell.Key)];
        (ResultCell Base, ResultCell New)[] pairs = [.. baseCells.Where(cell => news.ContainsKey(cell.Key)).Select(cell => (cell, news[cell.Key]))];
        Dictionary<string, double> scatters = pairs
            .Select(pair => (pair.Base.Metric, Log: Math.Log(pair.New.Value / pair.Base.Value)))
            .Where(pair => double.IsFinite(pair.Log))
            .GroupBy(pair => pair.Metric, pair => pair.Log)
            .ToDictionary(metric => metric.Key, metric => Scatter([.. metric]));
        List<CellChange> changes = [.. pairs.Select(pair =>
        {
            var change = new CellChange(pair.Base, pair.New, ChangeVerdict.Undecided) { Scatter = scatters.GetValueOrDefault(pair.Base.Metric) };
            return change with { Verdict = Judge(change, threshold) };
        })];
        return new RunComparison(
            changes,
            [.. baseCells.Where(cell => !news.ContainsKey(cell.Key))],
            [.. newCells.Where(cell => !bases.Contains(cell.Key))],
            threshold,
            []);
    }

    /// <summary>The verdict on one cell, judged by its own runs' spreads alone: see <see cref="ChangeVerdict"/>.</summary>
    public static ChangeVerdict Judge(ResultCell before, ResultCell after, double threshold) =>
        Judge(new CellChange(before, after, ChangeVerdict.Undecided), threshold);

    /// <summary>
    /// 1.4826 times the median absolute deviation of <paramref name="logs"/>, which is their standard deviation where they
    /// are normal; 0 below <see cref="MinimumCellsForASpread"/> of them.
    /// </summary>
    private static double Scatter(double[] logs)
    {
        if (logs.Length < MinimumCellsForASpread)
        {
            return 0;
        }

        double median = Median(logs);
        return 1.4826 * Median(logs.Select(log => Math.Abs(log - median)));
    }

    /// <summary>The verdict on <paramref name="change"/>, its scatter included.</summary>
    private static ChangeVerdict Judge(CellChange change, double threshold)
    {
        ArgumentNullException.ThrowIfNull(change);
        ResultCell before = change.Base;
        double ratio = change.Ratio;
        if (!double.IsFinite(ratio) || ratio <= 0)
        {
            return ChangeVerdict.Undecided;
        }

        double band = Math.Log(1 + threshold);
        bool withinThreshold = Math.Abs(Math.Log(ratio)) <= band;
        if (!change.SpreadKnown)
        {
            return withinThreshold ? ChangeVerdict.Same : ChangeVerdict.Undecided;
        }

        double low = Math.Log(change.LowRatio);
        double high = Math.Log(change.HighRatio);
        if (low > band || high < -band)
        {
            bool better = (ratio > 1) == (before.Better == Better.Higher);
            return better ? ChangeVerdict.Faster : ChangeVerdict.Slower;
        }

        return withinThreshold || (low <= 0 && high >= 0) ? ChangeVerdict.Same : ChangeVerdict.Undecided;
    }

    /// <summary>The comparison as markdown: the verdicts' counts, a table of every cell both hold, the cells only one holds.</summary>
    public string ToMarkdown(string baseName, string newName)
    {
        var output = new StringBuilder();
        output.AppendLine(
            s_numbers,
            $"Comparing {newName} against {baseName}: faster or slower when the whole interval of a cell's ratio is past a " +
                $"change of {Threshold:0.##%}, same when no change past it is shown.").AppendLine();
        output.AppendLine(string.Join(
            ", ",
            Enum.GetValues<ChangeVerdict>().Select(verdict => $"{Changes.Count(change => change.Verdict == verdict)} {verdict.ToString().ToLowerInvariant()}")))
            .AppendLine();
        WriteSpread(output);
        var table = new MarkdownTable("Run", "Metric", "Base (interval)", "New (interval)", "New / base (interval)", "Verdict");
        foreach (CellChange change in Changes)
        {
            table.Add(
                change.Base.Run,
                change.Base.Metric,
                Figure(change.Base),
                Figure(change.New),
                string.Create(s_numbers, $"{change.Ratio:0.000} ({change.LowRatio:0.000} to {change.HighRatio:0.000})"),
                change.Verdict.ToString().ToLowerInvariant());
        }

        table.WriteTo(output);
        OnlyIn(output, baseName, OnlyInBase);
        OnlyIn(output, newName, OnlyInNew);
        if (Differences.Count > 0)
        {
            output.AppendLine("The runs differ in:").AppendLine();
            foreach ((string fact, string? before, string? after) in Differences)
            {
                output.AppendLine(s_numbers, $"- {fact}: {before ?? "not given"} in {baseName}, {after ?? "not given"} in {newName}");
            }

            output.AppendLine();
        }

        return output.ToString();
    }

    /// <summary>
    /// Per metric, how far the median cell's ratio interval reaches, which is the least change these runs can show in such
    /// a cell, and how every cell moved together: a move that every row shares, the in-memory floor's among them, is more
    /// likely the machine's state than the stores'.
    /// </summary>
    private void WriteSpread(StringBuilder output)
    {
        string[] metrics = [.. Changes
            .Where(change => change.SpreadKnown && change.Ratio > 0 && change.LowRatio > 0 && double.IsFinite(change.HighRatio))
            .GroupBy(change => change.Base.Metric)
            .Where(metric => metric.Count() >= MinimumCellsForASpread)
            .Select(metric => string.Create(
                s_numbers,
                $"- {metric.Key}: ±{Median(metric.Select(change => Math.Max(change.HighRatio / change.Ratio, change.Ratio / change.LowRatio) - 1)):0%}, " +
                    $"of which the cells' scatter ±{Math.Exp(1.96 * metric.First().Scatter) - 1:0%}; " +
                    $"median ratio {Math.Exp(Median(metric.Select(change => Math.Log(change.Ratio)))):0.00}"))];
        if (metrics.Length == 0)
        {
            return;
        }

        output.AppendLine(
            "Per metric, how far the median cell's ratio interval reaches either side of its ratio (these runs cannot show a " +
                "smaller change in such a cell), how far of that is the scatter of all its cells' ratios (two runs' windows " +
                "differ by more than a run's intervals vary), and the median ratio of all its cells, new over base (a move " +
                "that every row shares, on one machine with the same versions, is more likely the machine's state than the " +
                "stores'):")
            .AppendLine();
        foreach (string metric in metrics)
        {
            output.AppendLine(metric);
        }

        output.AppendLine();
    }

    private static double Median(IEnumerable<double> values) => RatioInterval.Median([.. values.Order()]);

    private static void OnlyIn(StringBuilder output, string name, IReadOnlyList<ResultCell> cells)
    {
        if (cells.Count > 0)
        {
            output.AppendLine($"Only in {name}: {string.Join("; ", cells.Select(cell => cell.Key))}.").AppendLine();
        }
    }

    private static string Figure(ResultCell cell)
    {
        // Rates are whole operations; latencies in microseconds keep a tenth, which the fastest rows need.
        string format = cell.Unit == "ops/s" ? "N0" : "N1";
        string value = cell.Value.ToString(format, s_numbers);
        string low = cell.Low.ToString(format, s_numbers);
        string high = cell.High.ToString(format, s_numbers);
        return cell.Samples > 1 ? string.Create(s_numbers, $"{value} {cell.Unit} ({low} to {high}, {cell.Samples} intervals)") : $"{value} {cell.Unit}";
    }
}
