using System.Globalization;
using System.Text;

namespace KvBench.Evaluation.Reports.Charts;

/// <summary>
/// Renders a <see cref="Chart"/> as the two files gnuplot needs: a tab-separated data file (<c>&lt;id&gt;.dat</c>: the
/// figures the image is drawn from, one line per category, one column per series) and a script (<c>&lt;id&gt;.gp</c>)
/// that reads it and writes <c>&lt;id&gt;.png</c>. Both sit in one folder and name each other relatively, so
/// <c>gnuplot &lt;id&gt;.gp</c> in that folder redraws the picture.
/// </summary>
public static class GnuplotChart
{
    /// <summary>The image's width in pixels.</summary>
    public const int Width = 1200;

    /// <summary>The image's height in pixels.</summary>
    public const int Height = 675;

    /// <summary>The most x-axis labels a line chart prints: at this width, more of a run's interval times run together.</summary>
    public const int MaxLabelledTics = 16;

    /// <summary>What a data file writes for a category a series has no value for; gnuplot skips it.</summary>
    public const string Missing = "NaN";

    /// <summary>The line that names the data file's columns, after its "# " comment marker.</summary>
    public const string ColumnsPrefix = "# category\tposition";

    /// <summary>
    /// Okabe and Ito's colour-blind-safe palette without its yellow, which vanishes on white paper; each series also
    /// gets its own dash pattern, point shape or fill pattern, so lines and bars stay apart printed in grey.
    /// </summary>
    private static readonly string[] s_colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9"];

    private static readonly int[] s_pointTypes = [7, 5, 9, 11, 13, 4, 6, 8, 10, 12];

    /// <summary>gnuplot's fill patterns that read apart in print: diagonal hatches both ways, cross-hatch, steep hatches.</summary>
    private static readonly int[] s_fillPatterns = [4, 5, 1, 6, 7, 2];

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>The data file's text.</summary>
    public static string DataFile(Chart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        var data = new StringBuilder();
        data.Append("# ").Append(chart.Title).Append(" (").Append(chart.Tier).Append(")\n");
        data.Append("# X: ").Append(chart.X.Title).Append("; Y: ").Append(chart.Y.Title).Append('\n');
        data.Append(ColumnsPrefix);
        foreach (ChartSeries series in chart.Series)
        {
            data.Append('\t').Append(series.Name);
        }

        data.Append('\n');
        for (int i = 0; i < chart.Categories.Count; i++)
        {
            data.Append(chart.Categories[i]).Append('\t').Append(Chart.Number(Position(chart, i)));
            foreach (ChartSeries series in chart.Series)
            {
                data.Append('\t').Append(series.Values[i] is { } value ? Chart.Number(value) : Missing);
            }

            data.Append('\n');
        }

        return data.ToString();
    }

    /// <summary>The script's text: it reads <c>&lt;id&gt;.dat</c> and writes <c>&lt;id&gt;.png</c>, both beside it.</summary>
    /// <param name="chart">The chart.</param>
    /// <param name="machine">The machine the figures were measured on, for the title.</param>
    public static string Script(Chart chart, string machine)
    {
        ArgumentNullException.ThrowIfNull(chart);
        var script = new StringBuilder();
        script.Append(s_invariant, $"# Drawn by KvBench from {chart.Id}.dat; run `gnuplot {chart.Id}.gp` in this folder to draw {chart.Id}.png again.\n");
        // noenhanced: row names such as Sqlite_WAL would otherwise print with a subscript.
        script.Append(s_invariant, $"set terminal pngcairo size {Width},{Height} noenhanced font \"Sans,11\"\n");
        script.Append(s_invariant, $"set output \"{chart.Id}.png\"\n");
        script.Append("set datafile separator \"\\t\"\n");
        script.Append(s_invariant, $"set datafile missing \"{Missing}\"\n");
        script.Append(s_invariant, $"set title \"{Text(chart.Title)}\\n{Text(chart.Tier)}\\n{Text(machine)}\"\n");
        script.Append(s_invariant, $"set xlabel \"{Text(chart.X.Title)}\"\n");
        bool logY = UsesLogScale(chart);
        script.Append(s_invariant, $"set ylabel \"{Text(chart.Y.Title)}{(logY ? ", log scale" : string.Empty)}\"\n");
        script.Append("set key outside right top box opaque\n");
        // Solid grey grid lines: gnuplot's default dotted grid all but vanishes at this size.
        script.Append("set grid ytics mytics lt 1 lc rgb \"#c8c8c8\" lw 1, lt 1 lc rgb \"#ededed\" lw 1\n");
        script.Append("set border 3\nset tics nomirror\n");
        if (logY)
        {
            // Whole numbers print every digit (a million, not gnuplot's 1e+06); fractions as the shortest decimal.
            string format = chart.Series.SelectMany(series => series.Values).OfType<double>().Where(value => value > 0).Min() >= 1 ? "%.0f" : "%g";
            script.Append(s_invariant, $"set logscale y 10\nset mytics 10\nset format y \"{format}\"\n");
        }
        else
        {
            script.Append("set yrange [0:*]\n");
        }

        string file = $"\"{chart.Id}.dat\"";
        var plots = new List<string>();
        if (chart.Kind == ChartKind.Bars)
        {
            script.Append("set style data histograms\nset style histogram clustered gap 1\nset boxwidth 0.9 relative\n");
            if (chart.Categories.Count > 5)
            {
                script.Append("set xtics rotate by -30\n");
            }

            foreach (int i in Drawn(chart))
            {
                string fill = i == 0 ? "solid 0.85" : $"pattern {s_fillPatterns[(i - 1) % s_fillPatterns.Length]}";
                plots.Add(
                    string.Create(
                        s_invariant,
                        $"{(plots.Count == 0 ? file : "\"\"")} using {i + 3}" +
                            $"{(plots.Count == 0 ? ":xtic(1)" : string.Empty)} title \"{Text(chart.Series[i].Name)}" +
                            $"\" lc rgb \"{Colour(i)}\" fillstyle {fill} border lc rgb \"#000000\""));
            }
        }
        else
        {
            double first = chart.Categories.Count == 0 ? 0 : Enumerable.Range(0, chart.Categories.Count).Min(i => Position(chart, i));
            double last = chart.Categories.Count == 0 ? 1 : Enumerable.Range(0, chart.Categories.Count).Max(i => Position(chart, i));
            // A margin around the first and last category, so their points sit inside the frame rather than on it.
            script.Append(chart.X.Scale == AxisScale.Log && first > 0
                ? $"set logscale x 10\nset xrange [{Chart.Number(first / 1.3)}:{Chart.Number(last * 1.3)}]\n"
                : $"set xrange [{Chart.Number(first - ((last - first) * 0.05) - 0.3)}:{Chart.Number(last + ((last - first) * 0.05) + 0.3)}]\n");
            // Every category is a tic at its own position, so thread and record counts read as measured, not interpolated;
            // past MaxLabelledTics (a run over time has a tic per interval) only every so many is labelled, or they overlap.
            int labelEvery = (chart.Categories.Count + MaxLabelledTics - 1) / MaxLabelledTics;
            script.Append("set xtics (").Append(
                string.Join(
                    ", ",
                    chart.Categories.Select((label, i) =>
                        $"\"{(i % labelEvery == 0 ? Text(label) : string.Empty)}\" {Chart.Number(Position(chart, i))}"))).Append(")\n");
            foreach (int i in Drawn(chart))
            {
                plots.Add(
                    string.Create(
                        s_invariant,
                        $"{(plots.Count == 0 ? file : "\"\"")} using 2:{i + 3} with linespoints title \"" +
                            $"{Text(chart.Series[i].Name)}\" lc rgb \"{Colour(i)}\" lw 2 dt {(i % 5) + 1} pt " +
                            $"{s_pointTypes[i % s_pointTypes.Length]} ps 1.3"));
            }
        }

        script.Append("plot ").Append(string.Join(", \\\n     ", plots)).Append('\n');
        return script.ToString();
    }

    /// <summary>Where category <paramref name="index"/> sits on the X axis: its position, or its index for named categories.</summary>
    public static double Position(Chart chart, int index)
    {
        ArgumentNullException.ThrowIfNull(chart);
        return chart.Positions?[index] ?? index;
    }

    /// <summary>
    /// Whether the image uses a log Y axis: when the chart asks for one and its values span at least a factor of ten;
    /// over less, a log axis has a single labelled tic and reads worse than a linear one from 0.
    /// </summary>
    public static bool UsesLogScale(Chart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        double[] values = [.. chart.Series.SelectMany(series => series.Values).OfType<double>().Where(value => value > 0)];
        return chart.Y.Scale == AxisScale.Log && values.Length > 0 && values.Max() >= 10 * values.Min();
    }

    /// <summary>The indexes of the series with at least one value: gnuplot refuses to plot a column with none.</summary>
    private static IEnumerable<int> Drawn(Chart chart) =>
        Enumerable.Range(0, chart.Series.Count).Where(i => chart.Series[i].Values.Any(value => value is not null));

    private static string Colour(int series) => s_colours[series % s_colours.Length];

    /// <summary>A string inside gnuplot's double quotes, where a backslash and a double quote need escaping.</summary>
    private static string Text(string text) => text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal);
}
