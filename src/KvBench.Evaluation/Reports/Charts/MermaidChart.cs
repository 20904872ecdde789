using System.Text;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>
/// Renders a <see cref="Chart"/> as Mermaid <c>xychart-beta</c> blocks, which GitHub draws in markdown. Mermaid's xychart
/// has no legend and no log scale, so each series gets a block of its own whose title names it, scaled to its own
/// largest value, and the Y axis is linear from 0 whatever <see cref="Chart.Y"/>'s scale (which the PNG follows): a
/// bar's height is its value, and the axis title says so.
/// </summary>
public static class MermaidChart
{
    /// <summary>One fenced block per series that has any value, in series order.</summary>
    public static IReadOnlyList<string> Blocks(Chart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        var blocks = new List<string>();
        foreach (ChartSeries series in chart.Series)
        {
            // A category the series has no value for is left out rather than drawn as 0, which would be a measurement.
            (string Category, double Value)[] points = [.. chart.Categories
                .Zip(series.Values)
                .Where(pair => pair.Second is not null)
                .Select(pair => (pair.First, pair.Second!.Value))];
            if (points.Length == 0)
            {
                continue;
            }

            var block = new StringBuilder();
            block.AppendLine("```mermaid").AppendLine("xychart-beta");
            // Mermaid does not wrap a title: the tier goes under the X axis, whose title has the width of the chart.
            block.AppendLine($"    title \"{Text($"{chart.Title}: {series.Name}")}\"");
            block.AppendLine(
                $"    x-axis \"{Text($"{chart.X.Title}; acknowledged: {chart.Tier}")}\" [" +
                    $"{string.Join(", ", points.Select(point => $"\"{Text(point.Category)}\""))}]");
            block.AppendLine($"    y-axis \"{Text(chart.Y.Title)}, linear from 0\" 0 --> {Chart.Number(NiceCeiling(points.Max(point => point.Value)))}");
            block.AppendLine($"    {(chart.Kind == ChartKind.Bars ? "bar" : "line")} [{string.Join(", ", points.Select(point => Chart.Number(point.Value)))}]");
            block.AppendLine("```");
            blocks.Add(block.ToString());
        }

        return blocks;
    }

    /// <summary>
    /// The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least <paramref name="value"/>: an axis top that
    /// reads as a round number.
    /// </summary>
    public static double NiceCeiling(double value)
    {
        if (value <= 0)
        {
            return 1;
        }

        double power = Math.Pow(10, Math.Floor(Math.Log10(value)));
        return new[] { 1, 2, 2.5, 5, 10 }.Select(step => step * power).First(top => top >= value);
    }

    /// <summary>Mermaid ends a quoted string at any double quote and has no escape for it.</summary>
    private static string Text(string text) => text.Replace('"', '\'');
}
