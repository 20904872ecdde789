using System.Globalization;
using System.Text;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>How a markdown file carries its charts, the ADR file's and a rendered run's alike.</summary>
public static class ChartBlocks
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>More Mermaid blocks than this are folded away, so the tables around them stay readable.</summary>
    private const int Unfolded = 6;

    /// <summary>
    /// Writes <paramref name="description"/>, links to the PNGs of <paramref name="charts"/> drawn in
    /// <paramref name="images"/> (or the one line saying why none were), then the Mermaid blocks.
    /// </summary>
    /// <param name="output">The markdown.</param>
    /// <param name="images">The PNGs drawn; <see langword="null"/> for Mermaid only.</param>
    /// <param name="charts">The charts, in the order they are written.</param>
    /// <param name="description">The sentence that says what the charts show.</param>
    public static void Write(StringBuilder output, ChartImages? images, IReadOnlyList<Chart> charts, string description)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(charts);
        output.AppendLine(description).AppendLine();
        if (images is not null && charts.Any(chart => chart.Outputs.HasFlag(ChartOutputs.Image)))
        {
            string[] links = [.. charts.Where(chart => images.Link(chart.Id) is not null).Select(chart => $"[{chart.Title}]({images.Link(chart.Id)})")];
            output.AppendLine(links.Length > 0
                ? $"PNG charts, with a legend, the tier and the machine in each title, their data files beside them: {string.Join(" · ", links)}"
                : $"PNG charts: {images.Problem ?? "none drawn"}").AppendLine();
        }

        string[] blocks = [.. charts.Where(chart => chart.Outputs.HasFlag(ChartOutputs.Markdown)).SelectMany(MermaidChart.Blocks)];
        if (blocks.Length == 0)
        {
            return;
        }

        if (blocks.Length > Unfolded)
        {
            output.AppendLine(
                s_numbers,
                $"<details><summary>{blocks.Length} Mermaid charts: one series each (Mermaid draws no legend), " +
                    $"linear from 0</summary>").AppendLine();
        }

        foreach (string block in blocks)
        {
            output.Append(block).AppendLine();
        }

        if (blocks.Length > Unfolded)
        {
            output.AppendLine("</details>").AppendLine();
        }
    }
}
