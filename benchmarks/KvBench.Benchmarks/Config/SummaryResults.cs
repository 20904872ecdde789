using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Evaluation.Measuring;

namespace KvBench.Benchmarks;

/// <summary>BenchmarkDotNet's results as KvBench's <see cref="PointResult"/>, for the measuring code in KvBench.Evaluation.</summary>
internal static class SummaryResults
{
    /// <summary>
    /// Every successful case of <paramref name="summary"/> that has a <c>Type</c> and a <c>ValueBytes</c> parameter, with
    /// its <c>Threads</c> parameter where it has one (1 otherwise).
    /// </summary>
    public static IReadOnlyList<PointResult> From(Summary summary) =>
        [.. summary.Reports.Select(report => From(report.BenchmarkCase, report)).OfType<PointResult>()];

    public static PointResult? From(BenchmarkCase benchmarkCase, BenchmarkReport? report)
    {
        if (report?.ResultStatistics is not { } statistics
            || benchmarkCase.Parameters.Items.FirstOrDefault(p => p.Name == nameof(PointOperations.Type))?.Value is not string row
            || benchmarkCase.Parameters.Items.FirstOrDefault(p => p.Name == nameof(PointOperations.ValueBytes))?.Value is not int valueBytes)
        {
            return null;
        }

        long? allocated = report.GcStats.GetBytesAllocatedPerOperation(benchmarkCase);
        int threads = benchmarkCase.Parameters.Items.FirstOrDefault(p => p.Name == nameof(ThreadedPointOperations.Threads))?.Value is int value ? value : 1;
        return new PointResult(
            benchmarkCase.Descriptor.WorkloadMethod.Name,
            row,
            valueBytes,
            statistics.Mean,
            statistics.Median,
            allocated,
            statistics.OriginalValues,
            threads);
    }
}
