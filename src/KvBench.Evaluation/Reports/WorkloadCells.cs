using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// The cells every workload table prints alike (latencies, rates, CPU and system calls per operation, the row and its
/// acknowledged tier): the workload, thread, contention, SQLite, server and decision tables call these, so one figure
/// reads the same in each.
/// </summary>
public static class WorkloadCells
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The row's column, and the <see cref="AcknowledgedTier"/> column beside it when the tier is known.</summary>
    public static string[] RowColumns(Durability? acknowledgedAt) => acknowledgedAt is null ? ["Row"] : ["Row", AcknowledgedTier.ColumnName];

    /// <summary>The cells of <see cref="RowColumns"/> for <paramref name="row"/>.</summary>
    public static string[] RowCells(string row, Durability? acknowledgedAt) => acknowledgedAt is { } tier ? [row, AcknowledgedTier.Label(row, tier)] : [row];

    /// <summary>
    /// One statistic of <paramref name="latency"/> as <see cref="Latency(double?)"/> prints it; "none completed" when no
    /// operation of the kind completed in the window (a starved reader), where a statistic of nothing would print 0 ns.
    /// </summary>
    public static string Latency(LatencySummary? latency, Func<LatencySummary, double> pick)
    {
        ArgumentNullException.ThrowIfNull(pick);
        return latency is null ? "-" : latency.Count == 0 ? "none completed" : Latency(pick(latency));
    }

    /// <summary>"850 ns", "12.3 µs", "4.56 ms": three significant figures, a histogram bucket being 0.8% wide.</summary>
    public static string Latency(double? nanoseconds) => nanoseconds switch
    {
        null => "-",
        < 1_000 => string.Create(s_numbers, $"{nanoseconds:0} ns"),
        < 1_000_000 => string.Create(s_numbers, $"{nanoseconds / 1_000:0.##} µs"),
        _ => string.Create(s_numbers, $"{nanoseconds / 1_000_000:0.##} ms"),
    };

    /// <summary>The system share of CPU/op, where the split rests on enough timer samples; otherwise how little it had.</summary>
    public static string SystemCpuPerOperation(WorkloadResult result) => result.Cost switch
    {
        null => "-",
        { SplitIsSampledEnough: true } cost => Latency(cost.SystemMicrosecondsPerOperation(result.OperationsPerSecond) * 1_000),
        { SplitCpuSeconds: { } sampled } => string.Create(s_numbers, $"unsplit ({sampled * 1_000:0} ms of CPU)"),
        _ => "unsplit",
    };

    /// <summary>CPU time per operation, user and system, every thread of the process; "-" where it was not measured.</summary>
    public static string CpuPerOperation(WorkloadResult result) => result.CpuMicrosecondsPerOperation is { } micros ? Latency(micros * 1_000) : "-";

    /// <summary>System calls per operation, counted by the kernel for the run's threads; "-" where they were not counted.</summary>
    public static string SystemCallsPerOperation(WorkloadResult result) =>
        result.SystemCallsPerOperation is { } calls ? calls.ToString(calls < 10 ? "0.00" : "N0", s_numbers) : "-";

    /// <summary>Operations (or records) per second, as every table prints a rate.</summary>
    public static string Rate(double perSecond) => perSecond.ToString("N0", s_numbers);
}
