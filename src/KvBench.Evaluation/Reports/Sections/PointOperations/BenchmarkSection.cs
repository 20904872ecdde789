using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;


namespace KvBench.Evaluation.Reports.Sections.PointOperations;

/// <summary>
/// The latest BenchmarkDotNet tables (point operations and synced puts), the NexusMods record's published figures
/// beside this run's, and the ratio tables. It measures nothing itself: it reads what the last benchmark run left.
/// </summary>
public sealed class BenchmarkSection : AdrSection
{
    /// <summary>The operation table's columns, in the order decision records use.</summary>
    public static readonly IReadOnlyList<string> OperationColumns =
        ["Method", "Type", AcknowledgedTier.ColumnName, "ValueBytes", "Mean", "Error", "StdDev", "Gen0", "Gen1", "Gen2", "Allocated", "Op/s"];

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <inheritdoc/>
    public override string Name => "benchmarks";

    /// <summary>The point-operation benchmark report, when a run left one.</summary>
    [InResultsFile]
    public BenchmarkReport? PointOperations { get; set; }

    /// <summary>The synced-writes benchmark report, when a run left one.</summary>
    [InResultsFile]
    public BenchmarkReport? SyncedPuts { get; set; }

    /// <summary>The ratio tables (adapter / raw driver, naive / tuned) and goal checks of the latest point-operation run, as markdown.</summary>
    [InResultsFile]
    public string? Ratios { get; set; }

    /// <inheritdoc/>
    public override Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        PointOperations = BenchmarkReport.FindLatest(context.ResultsDirectory, "PointOperations");
        SyncedPuts = BenchmarkReport.FindLatest(context.ResultsDirectory, "SyncedPuts");
        Ratios = NewestFile(context.ResultsDirectory, "*PointOperations-ratios.md") is { } ratios ? File.ReadAllText(ratios) : null;
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        StringBuilder output = markdown.Output;
        output.AppendLine("## Benchmark results").AppendLine();
        WriteBenchmark(
            output, PointOperations, "PointOperations",
            "Put, Get and HaveKey at Buffered durability for every row, 9-byte keys, 128- and 1028-byte values, warm " +
                "data (the dataset fits in the page cache).");
        if (PointOperations is not null)
        {
            markdown.Charts(
                AdrCharts.PointOperations(PointOperations),
                "Mean time per call of every catalog row (raw baselines and naive usages are in the ratio tables " +
                    "below). The charts show time, not operations per second: in time, the in-memory rows (FASTER " +
                    "holds writes in memory until Flush; Memory is the floor, not a candidate) are the short bars " +
                    "they are, where in operations per second they would flatten every store that writes to a file.");
            output.AppendLine("### Beside the NexusMods record").AppendLine();
            output.AppendLine(
                s_numbers,
                $"The decision record \"Use SqlLite as a datastore\" (NexusMods) published the table this one " +
                    $"follows, measured on its authors' machine: its means and allocations are quoted here as " +
                    $"published, beside this run's at {PublishedPointOperations.ValueBytes}-byte values and Buffered " +
                    $"durability. A ratio far from 1 is a different machine, package version or usage, or (for " +
                    $"LMDB's Put) a different durability.").AppendLine();
            PublishedPointOperations.Table(PointOperations).WriteTo(output);
        }

        if (Ratios is not null)
        {
            output.AppendLine("### What the abstraction and the usage cost").AppendLine();
            // The ratio file is a document of its own; its headings sit one level below this section here.
            output.AppendLine(Regex.Replace(Ratios.Trim(), "^## ", "#### ", RegexOptions.Multiline)).AppendLine();
        }

        WriteBenchmark(output, SyncedPuts, "SyncedPuts", "Put and a 100-item PutMany at Synced durability, for the rows that offer it.");
        if (SyncedPuts is not null)
        {
            markdown.Charts(
                AdrCharts.SyncedPuts(SyncedPuts),
                "Mean time per Put and per item of a PutMany: what one device flush costs each row, and how much a batch saves.");
        }
    }

    private static void WriteBenchmark(StringBuilder output, BenchmarkReport? report, string benchmark, string description)
    {
        output.AppendLine(s_numbers, $"### {benchmark}").AppendLine();
        if (report is null)
        {
            output.AppendLine(
                s_numbers,
                $"No {benchmark} results were found. Run `dotnet run -c Release --project " +
                    $"benchmarks/KvBench.Benchmarks` and generate this file again.").AppendLine();
            return;
        }

        output.AppendLine(description).AppendLine();
        report.Select(OperationColumns).WriteTo(output);
        output.AppendLine(s_numbers, $"From `{Path.GetFileName(report.Path)}`, written {report.WrittenUtc:yyyy-MM-dd HH:mm} UTC.").AppendLine();
    }

    private static string? NewestFile(string directory, string pattern) =>
        Directory.Exists(directory)
            ? new DirectoryInfo(directory).EnumerateFiles(pattern).MaxBy(file => file.LastWriteTimeUtc)?.FullName
            : null;
}
