using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Evaluation.Measuring;

namespace KvBench.Benchmarks;

/// <summary>The ratio tables and goal checks a run writes beside BenchmarkDotNet's tables, one file per suite that has them.</summary>
internal static class RatioFiles
{
    /// <summary>The file, beside BenchmarkDotNet's tables, that holds the ratio tables and goal checks.</summary>
    public const string PointOperationsFile = "KvBench.Benchmarks.PointOperations-ratios.md";

    /// <summary>The file, beside BenchmarkDotNet's tables, that holds the ratios of <see cref="ServerPointOperations"/>.</summary>
    public const string ServerPointOperationsFile = "KvBench.Benchmarks.ServerPointOperations-ratios.md";

    /// <summary>The file, beside BenchmarkDotNet's tables, that holds the ratios of <see cref="ThreadedPointOperations"/>.</summary>
    public const string ThreadedPointOperationsFile = "KvBench.Benchmarks.ThreadedPointOperations-ratios.md";

    /// <summary>
    /// Writes and prints the ratio files of the suites <paramref name="summary"/> ran; the point operations' carries the
    /// paired adapter ÷ raw table and goals when <paramref name="paired"/> was measured.
    /// </summary>
    public static void Write(Summary summary, PairedRatios? paired)
    {
        Write(summary, typeof(PointOperations), PointOperationsFile, results => PointOperationReport.ToMarkdown(results, paired));
        Write(summary, typeof(ServerPointOperations), ServerPointOperationsFile, results =>
            PointOperationReport.ToMarkdown(results, paired: null, allocationsAgainstRaw: true));
        Write(summary, typeof(ThreadedPointOperations), ThreadedPointOperationsFile, PointOperationReport.ThreadedToMarkdown);
    }

    private static void Write(Summary summary, Type benchmark, string fileName, Func<IEnumerable<PointResult>, string> toMarkdown)
    {
        List<BenchmarkCase> cases = [.. summary.BenchmarksCases.Where(benchmarkCase => benchmarkCase.Descriptor.Type == benchmark)];
        if (cases.Count == 0)
        {
            return;
        }

        IReadOnlyList<PointResult> results = [.. summary.Reports
            .Where(report => cases.Contains(report.BenchmarkCase))
            .Select(report => SummaryResults.From(report.BenchmarkCase, report))
            .OfType<PointResult>()
            .Where(result => PointMethods.All.Contains(result.Method))];

        string markdown = toMarkdown(results);
        File.WriteAllText(Path.Combine(summary.ResultsDirectoryPath, fileName), markdown);
        Console.WriteLine();
        Console.WriteLine(markdown);
    }
}
