using System.Text;
using System.Text.Json;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The workload runs of a file that <c>kvbench run</c>, <c>ycsb</c> or <c>sweep</c> wrote with <c>--json</c>, drawn
/// as <c>kvbench render</c> draws them: their tables, then each run over time, where a stall shows.
/// </summary>
public static class RunsOverTime
{
    /// <summary>Every workload run in the file at <paramref name="path"/>, in the file's order.</summary>
    /// <exception cref="ResultsFileException">The file cannot be read, is not JSON, or holds no workload run.</exception>
    internal static IReadOnlyList<WorkloadResult> Read(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
            WorkloadResult[] runs = [.. ResultCells.Runs(document.RootElement).Select(run => run.Deserialize<WorkloadResult>(ResultsJson.Options)!)];
            return runs.Length > 0
                ? runs
                : throw new ResultsFileException(
                    path, "holds neither a run's results nor a workload run; give a results file, or --json of run, ycsb or sweep");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new ResultsFileException(path, e.Message, e);
        }
        catch (JsonException e)
        {
            throw new ResultsFileException(path, $"is not a file of workload runs KvBench can read ({e.Message})", e);
        }
    }

    /// <summary>
    /// Draws the workload runs of a file that is no results file (<c>--json</c> of <c>run</c>, <c>ycsb</c> or
    /// <c>sweep</c> before their files were results files) as its YCSB table, then each run over time.
    /// </summary>
    /// <exception cref="ResultsFileException">The file cannot be read, is not JSON, or holds no workload run.</exception>
    public static Task<ChartImages> RenderAsync(string path, string markdownFile, string? gnuplot = null)
    {
        IReadOnlyList<WorkloadResult> runs = Read(path);
        var tables = new StringBuilder();
        WorkloadTables.Ycsb(runs).WriteTo(tables);
        // Such a file records no machine: the charts' titles say so rather than name the machine that draws them.
        return WriteAsync(runs, tables.ToString(), markdownFile, path, "machine not recorded in the run's file", gnuplot);
    }

    /// <summary>
    /// Writes <paramref name="tables"/> to <paramref name="markdownFile"/>, then each of <paramref name="runs"/>'
    /// operations per second and p99 per interval of its timeline, with the charts beside it.
    /// </summary>
    /// <param name="runs">The runs to draw over time; none for only the tables.</param>
    /// <param name="tables">The tables, as the command that measured the runs printed them.</param>
    /// <param name="markdownFile">The markdown file to write.</param>
    /// <param name="source">The file the runs were read from, named in the markdown.</param>
    /// <param name="machine">The machine and date, for the charts' titles.</param>
    /// <param name="gnuplot">The gnuplot to draw the PNGs with; default: the one on the path.</param>
    public static async Task<ChartImages> WriteAsync(
        IReadOnlyList<WorkloadResult> runs, string tables, string markdownFile, string source, string machine, string? gnuplot = null)
    {
        ArgumentNullException.ThrowIfNull(runs);
        IReadOnlyList<Chart> charts = AdrCharts.OverTime(runs);
        ChartImages images = charts.Count == 0
            ? ChartFiles.None(markdownFile)
            : await ChartFiles.WriteAsync(charts, ChartFiles.FolderFor(markdownFile), machine, gnuplot).ConfigureAwait(false);
        var output = new StringBuilder();
        output.AppendLine($"# Workload runs of {Path.GetFileName(source)}").AppendLine();
        output.AppendLine($"Drawn by `kvbench render {Path.GetFileName(source)}` from the runs the file holds.").AppendLine();
        output.Append(tables);
        if (charts.Count > 0)
        {
            output.AppendLine("## The run over time").AppendLine();
            ChartBlocks.Write(
                output,
                images,
                charts,
                "Each run's operations per second and p99 latency in each interval of its measured window (the run's " +
                    "timeline): a stall shows as a dip in the one and a peak in the other at the same time.");
        }

        await File.WriteAllTextAsync(markdownFile, output.ToString()).ConfigureAwait(false);
        return images;
    }
}
