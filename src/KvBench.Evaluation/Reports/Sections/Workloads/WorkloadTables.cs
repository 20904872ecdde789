using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports.Sections.Workloads;

/// <summary>The workload section's YCSB and scale tables, which <c>kvbench run</c>, <c>ycsb</c> and <c>sweep scale</c> print too.</summary>
public static class WorkloadTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>
    /// One line per row, workload and operation: ops/s of that operation, its latency percentiles (p50 to max), and wrong
    /// reads. With <paramref name="acknowledgedAt"/>, the tier the rows ran at, an <see cref="AcknowledgedTier"/> column
    /// says what each row's acknowledged write had reached, so rows at different effective tiers are never set side by
    /// side unmarked.
    /// </summary>
    public static MarkdownTable Ycsb(IEnumerable<WorkloadResult> results, Durability? acknowledgedAt = null)
    {
        var table = new MarkdownTable(
            [
                .. WorkloadCells.RowColumns(acknowledgedAt), "Workload", "Threads", "Operation", "ops/s", "p50", "p95", "p99",
                "p99.9", "max", "run CPU/op", "run syscalls/op", "Wrong reads", "Errors"]);
        foreach (WorkloadResult result in results)
        {
            foreach (OperationResult operation in result.Operations)
            {
                table.Add([
                    .. WorkloadCells.RowCells(result.Store, acknowledgedAt),
                    result.Workload.Name,
                    result.Settings.Threads.ToString(s_numbers),
                    operation.Type.ToString(),
                    WorkloadCells.Rate(operation.OperationsPerSecond),
                    WorkloadCells.Latency(operation.Latency, static latency => latency.P50),
                    WorkloadCells.Latency(operation.Latency, static latency => latency.P95),
                    WorkloadCells.Latency(operation.Latency, static latency => latency.P99),
                    WorkloadCells.Latency(operation.Latency, static latency => latency.P999),
                    WorkloadCells.Latency(operation.Latency, static latency => latency.Max),
                    WorkloadCells.CpuPerOperation(result),
                    WorkloadCells.SystemCallsPerOperation(result),
                    result.WrongReads.ToString("N0", s_numbers),
                    result.Errors.ToString("N0", s_numbers)]);
            }
        }

        return table;
    }

    /// <summary>
    /// One line per row and record count: load rate, bytes per record, and the median Get, Put and 100-record scan; the
    /// <see cref="AcknowledgedTier"/> column as in <see cref="Ycsb"/>.
    /// </summary>
    public static MarkdownTable Scale(IEnumerable<ScalePoint> points, Durability? acknowledgedAt = null)
    {
        var table = new MarkdownTable(
            [
                .. WorkloadCells.RowColumns(acknowledgedAt), "Records", "Load (records/s)", "Bytes on disk per record", "Get p50",
                "Put p50", "Scan 1-100 p50", "Get CPU/op", "Get syscalls/op", "Put CPU/op", "Put syscalls/op",
                "Wrong reads"]);
        foreach (ScalePoint point in points)
        {
            table.Add([
                .. WorkloadCells.RowCells(point.Store, acknowledgedAt),
                point.Records.ToString("N0", s_numbers),
                WorkloadCells.Rate(point.LoadRecordsPerSecond),
                point.BytesOnDisk == 0 ? "-" : point.BytesPerRecord.ToString("N0", s_numbers),
                WorkloadCells.Latency(point.Get.Of(OperationType.Read)?.Latency, static latency => latency.P50),
                WorkloadCells.Latency(point.Put.Of(OperationType.Update)?.Latency, static latency => latency.P50),
                WorkloadCells.Latency(point.Scan.Of(OperationType.Scan)?.Latency, static latency => latency.P50),
                WorkloadCells.CpuPerOperation(point.Get),
                WorkloadCells.SystemCallsPerOperation(point.Get),
                WorkloadCells.CpuPerOperation(point.Put),
                WorkloadCells.SystemCallsPerOperation(point.Put),
                (point.Get.WrongReads + point.Put.WrongReads + point.Scan.WrongReads).ToString("N0", s_numbers)]);
        }

        return table;
    }

    /// <summary>Why system calls were not counted in <paramref name="results"/>, or <see langword="null"/> when every run counted them.</summary>
    public static string? SystemCallsUnmeasured(IEnumerable<WorkloadResult> results) =>
        results.Select(result => result.Cost?.SystemCallsUnmeasured).FirstOrDefault(reason => reason is not null);
}
