using System.Globalization;

using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports;

/// <summary>The workload suites' results as the markdown tables the CLI prints and the ADR file carries.</summary>
public static class WorkloadTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>One line per row, workload and operation: ops/s of that operation, its latency percentiles (p50 to max), and wrong reads.</summary>
    public static MarkdownTable Ycsb(IEnumerable<WorkloadResult> results)
    {
        var table = new MarkdownTable("Row", "Workload", "Threads", "Operation", "ops/s", "p50", "p95", "p99", "p99.9", "max", "Wrong reads", "Errors");
        foreach (WorkloadResult result in results)
        {
            foreach (OperationResult operation in result.Operations)
            {
                table.Add(
                    result.Store,
                    result.Workload.Name,
                    result.Settings.Threads.ToString(s_numbers),
                    operation.Type.ToString(),
                    Rate(operation.OperationsPerSecond),
                    Latency(operation.Latency.P50),
                    Latency(operation.Latency.P95),
                    Latency(operation.Latency.P99),
                    Latency(operation.Latency.P999),
                    Latency(operation.Latency.Max),
                    result.WrongReads.ToString("N0", s_numbers),
                    result.Errors.ToString("N0", s_numbers));
            }
        }

        return table;
    }

    /// <summary>One line per row and mix: all operations per second at each thread count, then the p99 of the largest count.</summary>
    public static MarkdownTable Threads(IReadOnlyList<WorkloadResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        int[] threadCounts = [.. results.Select(result => result.Settings.Threads).Distinct().Order()];
        var table = new MarkdownTable([
            "Row", "Mix", .. threadCounts.Select(threads => string.Create(s_numbers, $"{threads} thread{(threads == 1 ? string.Empty : "s")} (ops/s)")),
            string.Create(s_numbers, $"p99 at {threadCounts.LastOrDefault()} threads"), "Wrong reads"]);
        foreach (IGrouping<(string Store, string Mix), WorkloadResult> group in results.GroupBy(result => (result.Store, result.Workload.Name)))
        {
            WorkloadResult? widest = group.MaxBy(result => result.Settings.Threads);
            table.Add([
                group.Key.Store,
                group.Key.Mix,
                .. threadCounts.Select(threads => group.FirstOrDefault(result => result.Settings.Threads == threads) is { } result ? Rate(result.OperationsPerSecond) : "-"),
                widest is null ? "-" : string.Join(" / ", widest.Operations.Select(operation => $"{operation.Type} {Latency(operation.Latency.P99)}")),
                group.Sum(result => result.WrongReads).ToString("N0", s_numbers)]);
        }

        return table;
    }

    /// <summary>One line per row and record count: load rate, bytes per record, and the median Get, Put and 100-record scan.</summary>
    public static MarkdownTable Scale(IEnumerable<ScalePoint> points)
    {
        var table = new MarkdownTable("Row", "Records", "Load (records/s)", "Bytes on disk per record", "Get p50", "Put p50", "Scan 1-100 p50", "Wrong reads");
        foreach (ScalePoint point in points)
        {
            table.Add(
                point.Store,
                point.Records.ToString("N0", s_numbers),
                Rate(point.LoadRecordsPerSecond),
                point.BytesOnDisk == 0 ? "-" : point.BytesPerRecord.ToString("N0", s_numbers),
                Latency(point.Get.Of(OperationType.Read)?.Latency.P50),
                Latency(point.Put.Of(OperationType.Update)?.Latency.P50),
                Latency(point.Scan.Of(OperationType.Scan)?.Latency.P50),
                (point.Get.WrongReads + point.Put.WrongReads + point.Scan.WrongReads).ToString("N0", s_numbers));
        }

        return table;
    }

    /// <summary>"850 ns", "12.3 µs", "4.56 ms": three significant figures, a histogram bucket being 0.8% wide.</summary>
    public static string Latency(double? nanoseconds) => nanoseconds switch
    {
        null => "-",
        < 1_000 => string.Create(s_numbers, $"{nanoseconds:0} ns"),
        < 1_000_000 => string.Create(s_numbers, $"{nanoseconds / 1_000:0.##} µs"),
        _ => string.Create(s_numbers, $"{nanoseconds / 1_000_000:0.##} ms"),
    };

    private static string Rate(double perSecond) => perSecond.ToString("N0", s_numbers);
}
