using System.Globalization;
using System.Text;

using KvBench.Evaluation.Reports;

namespace KvBench.Evaluation.Comparison;

/// <summary>What a comparison says of one cell both runs hold.</summary>
public enum ChangeVerdict
{
    /// <summary>The medians differ by less than the threshold.</summary>
    Same,

    /// <summary>Better by more than the threshold, and the two runs' intervals do not overlap.</summary>
    Faster,

    /// <summary>Worse by more than the threshold, and the two runs' intervals do not overlap.</summary>
    Slower,

    /// <summary>The medians differ by more than the threshold, but the intervals overlap: the runs do not tell.</summary>
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

    /// <summary>The least ratio the intervals allow: the new run's least over the base run's most.</summary>
    public double LowRatio => New.Low / Base.High;

    /// <summary>The most ratio the intervals allow.</summary>
    public double HighRatio => New.High / Base.Low;
}

/// <summary>
/// Two runs set side by side, cell by cell: the ratio of each cell both hold, a verdict under a threshold, and the
/// cells only one holds. A verdict of faster or slower needs both a change past the threshold and intervals that do not
/// overlap, so noise within a run never reads as a change; a change past the threshold inside the noise is undecided.
/// </summary>
public sealed class RunComparison
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

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
        List<CellChange> changes = [.. baseCells
            .Where(cell => news.ContainsKey(cell.Key))
            .Select(cell => new CellChange(cell, news[cell.Key], Judge(cell, news[cell.Key], threshold)))];
        return new RunComparison(
            changes,
            [.. baseCells.Where(cell => !news.ContainsKey(cell.Key))],
            [.. newCells.Where(cell => !bases.Contains(cell.Key))],
            threshold,
            []);
    }

    /// <summary>The verdict on one cell: see <see cref="ChangeVerdict"/>.</summary>
    public static ChangeVerdict Judge(ResultCell before, ResultCell after, double threshold)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        double ratio = after.Value / before.Value;
        if (!double.IsFinite(ratio) || ratio <= 0)
        {
            return ChangeVerdict.Undecided;
        }

        if (Math.Abs(Math.Log(ratio)) <= Math.Log(1 + threshold))
        {
            return ChangeVerdict.Same;
        }

        bool overlap = after.Low <= before.High && before.Low <= after.High;
        if (overlap)
        {
            return ChangeVerdict.Undecided;
        }

        bool better = (ratio > 1) == (before.Better == Better.Higher);
        return better ? ChangeVerdict.Faster : ChangeVerdict.Slower;
    }

    /// <summary>The comparison as markdown: the verdicts' counts, a table of every cell both hold, the cells only one holds.</summary>
    public string ToMarkdown(string baseName, string newName)
    {
        var output = new StringBuilder();
        output.AppendLine(s_numbers, $"Comparing {newName} against {baseName}: a change of more than {Threshold:0.##%} whose intervals do not overlap.")
            .AppendLine();
        output.AppendLine(string.Join(
            ", ",
            Enum.GetValues<ChangeVerdict>().Select(verdict => $"{Changes.Count(change => change.Verdict == verdict)} {verdict.ToString().ToLowerInvariant()}")))
            .AppendLine();
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
