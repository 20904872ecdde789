using KvBench.Evaluation.Measuring;

namespace KvBench.Tests.Evaluation;

public sealed class PairedRatioTests
{
    /// <summary>Thirty rounds spread evenly over <paramref name="center"/> ± 2%.</summary>
    private static double[] Rounds(double center) => [.. Enumerable.Range(0, 30).Select(i => center * (0.98 + (0.04 * i / 29)))];

    [Fact]
    public void Two_processes_that_disagree_give_an_interval_that_holds_both()
    {
        (double median, (double Low, double High)? interval) = RatioInterval.OfClusters([Rounds(1.0), Rounds(1.3)]);

        Assert.NotNull(interval);
        Assert.InRange(interval.Value.Low, 0.97, 1.02);
        Assert.InRange(interval.Value.High, 1.27, 1.33);
        Assert.InRange(median, 1.0, 1.3);
    }

    [Fact]
    public void Processes_that_agree_give_an_interval_as_narrow_as_their_rounds()
    {
        (double median, (double Low, double High)? interval) = RatioInterval.OfClusters([Rounds(1.0), Rounds(1.0)]);

        Assert.NotNull(interval);
        Assert.InRange(interval.Value.Low, 0.98, 1.0);
        Assert.InRange(interval.Value.High, 1.0, 1.02);
        Assert.Equal(1.0, median, 2);
    }

    [Fact]
    public void No_rounds_give_no_ratio()
    {
        (double median, (double Low, double High)? interval) = RatioInterval.OfClusters([[], []]);

        Assert.True(double.IsNaN(median));
        Assert.Null(interval);
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
}
