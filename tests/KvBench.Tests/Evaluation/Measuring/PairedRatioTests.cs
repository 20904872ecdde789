using KvBench.Evaluation.Measuring;


namespace KvBench.Tests.Evaluation.Measuring;

public sealed class PairedRatioTests
{
    /// <summary>Thirty rounds spread evenly over <paramref name="center"/> ± 2%.</summary>
    private static double[] Rounds(double center) => [.. Enumerable.Range(0, 30).Select(i => center * (0.98 + (0.04 * i / 29)))];

    [Fact]
    public void Two_processes_that_disagree_give_an_interval_wider_than_both()
    {
        (double ratio, (double Low, double High)? interval) = RatioInterval.OfProcesses([Rounds(1.0), Rounds(1.3)]);

        // Two observations that differ by 30% say little about a third process: t with one degree of freedom is 12.7.
        Assert.NotNull(interval);
        Assert.True(interval.Value.Low < 0.5, $"low {interval.Value.Low}");
        Assert.True(interval.Value.High > 2.0, $"high {interval.Value.High}");
        Assert.Equal(Math.Sqrt(1.0 * 1.3), ratio, 3);
    }

    [Fact]
    public void Four_processes_give_Student_t_over_their_log_medians()
    {
        double[] medians = [1.00, 1.04, 1.08, 1.12];
        (double ratio, (double Low, double High)? interval) = RatioInterval.OfProcesses([.. medians.Select(median => (IReadOnlyList<double>)Rounds(median))]);

        double[] logs = [.. medians.Select(median => Math.Log(median))];
        double mean = logs.Average();
        double standardError = Math.Sqrt(logs.Sum(log => (log - mean) * (log - mean)) / 3 / 4);
        Assert.NotNull(interval);
        Assert.Equal(Math.Exp(mean), ratio, 6);
        Assert.Equal(Math.Exp(mean - (3.182 * standardError)), interval.Value.Low, 6);
        Assert.Equal(Math.Exp(mean + (3.182 * standardError)), interval.Value.High, 6);
    }

    [Fact]
    public void A_process_that_disagrees_counts_once_however_many_rounds_it_has()
    {
        IReadOnlyList<double> outlier = [.. Enumerable.Repeat(1.6, 300)];
        (double ratio, _) = RatioInterval.OfProcesses([Rounds(1.0), Rounds(1.0), Rounds(1.0), outlier]);

        Assert.Equal(Math.Pow(1.6, 0.25), ratio, 3);
    }

    [Fact]
    public void Processes_that_agree_give_a_narrow_interval()
    {
        (double ratio, (double Low, double High)? interval) = RatioInterval.OfProcesses([Rounds(1.0), Rounds(1.01), Rounds(0.99), Rounds(1.0)]);

        Assert.NotNull(interval);
        Assert.InRange(interval.Value.Low, 0.97, 1.0);
        Assert.InRange(interval.Value.High, 1.0, 1.03);
        Assert.Equal(1.0, ratio, 2);
    }

    [Fact]
    public void One_process_gives_a_ratio_without_an_interval_and_none_gives_no_ratio()
    {
        (double one, (double Low, double High)? oneInterval) = RatioInterval.OfProcesses([Rounds(1.2)]);
        (double none, (double Low, double High)? noInterval) = RatioInterval.OfProcesses([[], []]);

        Assert.Equal(1.2, one, 2);
        Assert.Null(oneInterval);
        Assert.True(double.IsNaN(none));
        Assert.Null(noInterval);
    }

    [Fact]
    public void Paired_ratios_replace_the_separate_processes_ratios_in_the_adapter_table_and_its_goals()
    {
        PointResult[] results =
        [
            new(PointMethods.Get, "LMDB", 128, 2_000, 2_000, 0),
            new(PointMethods.Get, "LMDB_raw", 128, 1_000, 1_000, 0),
        ];
        var paired = new PairedRatios([new RowRatio(PointMethods.Get, 128, "LMDB", "LMDB_raw", 1.01, (0.99, 1.03))], PairedPriceSettings.Default);

        string separate = PointOperationReport.ToMarkdown(results);
        string markdown = PointOperationReport.ToMarkdown(results, paired);

        Assert.Contains("| LMDB | LMDB_raw | 2.00 |", separate, StringComparison.Ordinal);
        Assert.Contains("| LMDB | LMDB_raw | 1.01 (0.99–1.03) |", markdown, StringComparison.Ordinal);
        Assert.Contains("measured paired", markdown, StringComparison.Ordinal);
        Assert.Contains(
            PointOperationTargets.Check(results, paired.Ratios),
            check => check is { Row: "LMDB", Method: PointMethods.Get, Verdict: GoalVerdict.Met });
        Assert.Contains(
            PointOperationTargets.Check(results),
            check => check is { Row: "LMDB", Method: PointMethods.Get, Verdict: GoalVerdict.Missed });
    }

    [Fact]
    public void The_time_each_adapter_adds_per_call_is_printed_beside_its_raw_drivers_time()
    {
        var paired = new PairedRatios(
            [
                new RowRatio(PointMethods.Get, 128, "FASTER", "FASTER_raw", 1.25, (1.2, 1.3), CallTime: new CallTime(120.4, 30.2)),
                new RowRatio(PointMethods.Get, 128, "LiteDB", "LiteDB_raw", 0.99, (0.97, 1.01), CallTime: new CallTime(2_500, -20)),
            ],
            PairedPriceSettings.Default);

        string markdown = PointOperationReport.ToMarkdown([], paired);

        Assert.Contains("### What the adapter adds per call", markdown, StringComparison.Ordinal);
        Assert.Contains("| FASTER | FASTER_raw | +30 ns on 120 ns |", markdown, StringComparison.Ordinal);
        Assert.Contains("| LiteDB | LiteDB_raw | -20 ns on 2500 ns |", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("### What the adapter adds per call", PointOperationReport.ToMarkdown([]), StringComparison.Ordinal);
    }

    [Fact]
    public void The_cells_measured_in_extra_processes_are_named_with_their_counts_and_verdicts()
    {
        var paired = new PairedRatios(
            [
                new RowRatio(PointMethods.Get, 128, "LMDB", "LMDB_raw", 1.02, (0.99, 1.05), Processes: 6),
                new RowRatio(PointMethods.Put, 128, "RocksDB", "RocksDB_raw", 0.98, (0.81, 1.19), Threads: 4, Processes: 5),
                new RowRatio(PointMethods.HaveKey, 128, "LiteDB", "LiteDB_raw", 1.00, (0.98, 1.02), Processes: 3),
            ],
            PairedPriceSettings.Default);

        string markdown = PointOperationReport.ToMarkdown([], paired);

        Assert.Contains(
            "Measured in more than 3 processes, being inconclusive after them: LMDB Get 128 B in 6, met; RocksDB Put " +
                "128 B at 4 threads in 5, inconclusive.",
            markdown,
            StringComparison.Ordinal);
        Assert.Contains(
            PointOperationTargets.Check([], paired.Ratios),
            check => check is { Row: "RocksDB", Measured: "0.98 (0.81–1.19), 5 processes", Verdict: GoalVerdict.Inconclusive });
        Assert.Contains(
            "No cell needed more than 3 processes.",
            PointOperationReport.ToMarkdown([], new PairedRatios([paired.Ratios[2]], PairedPriceSettings.Default)),
            StringComparison.Ordinal);
    }

    [Fact]
    public void The_methods_null_is_printed_apart_from_the_goals_with_the_intervals_that_leave_one_out()
    {
        RowRatio[] adapter = [new RowRatio(PointMethods.Get, 128, "Memory", "Memory_raw", 1.25, (1.20, 1.31))];
        RowRatio[] unbiased =
        [
            new RowRatio(PointMethods.Get, 128, "Memory_raw", "Memory_raw", 1.01, (0.98, 1.04)),
            new RowRatio(PointMethods.Put, 128, "Memory_raw", "Memory_raw", 0.97, (0.80, 1.18), Threads: 4),
        ];
        RowRatio[] biased = [unbiased[0], new RowRatio(PointMethods.Put, 128, "Memory_raw", "Memory_raw", 1.25, (1.20, 1.31), Threads: 4)];

        string fine = PointOperationReport.ToMarkdown([], new PairedRatios(adapter, PairedPriceSettings.Default, unbiased));
        string leaning = PointOperationReport.ToMarkdown([], new PairedRatios(adapter, PairedPriceSettings.Default, biased));

        Assert.Contains("The method's null: Memory_raw measured against a second copy of itself", fine, StringComparison.Ordinal);
        Assert.Contains("| Get 128 B, 1 thread | Put 128 B, 4 threads |", fine, StringComparison.Ordinal);
        Assert.Contains("| Memory_raw | Memory_raw | 1.01 (0.98–1.04) | 0.97 (0.80–1.18) |", fine, StringComparison.Ordinal);
        Assert.Contains("Every interval of the null holds 1.", fine, StringComparison.Ordinal);
        Assert.Contains(
            "1 of 2 intervals of the null leave 1 out, where chance alone leaves out one in 20: Put 128 B at 4 threads, 1.25 (1.20–1.31).",
            leaning,
            StringComparison.Ordinal);
        Assert.DoesNotContain("Every interval of the null holds 1.", leaning, StringComparison.Ordinal);
        Assert.Contains("| Memory | Get | 128 | adapter ÷ raw ≤ 1.10 |", leaning, StringComparison.Ordinal);
        Assert.DoesNotContain("| Memory_raw | Put | 128 |", leaning, StringComparison.Ordinal);
        Assert.DoesNotContain(
            "The method's null",
            PointOperationReport.ToMarkdown([], new PairedRatios(adapter, PairedPriceSettings.Default)),
            StringComparison.Ordinal);
    }
}
