using KvBench.Evaluation.Comparison;

namespace KvBench.Tests.Evaluation.Comparison;

/// <summary>The verdict on a cell: a change past the threshold counts only when the two runs' intervals do not overlap.</summary>
public sealed class RunComparisonTests
{
    [Theory]
    [InlineData(100, 90, 110, 103, 95, 112, "Same")]
    [InlineData(100, 95, 105, 130, 125, 135, "Faster")]
    [InlineData(100, 95, 105, 70, 65, 75, "Slower")]
    [InlineData(100, 60, 140, 130, 90, 170, "Undecided")]
    public void Throughput_is_judged_by_its_median_s_change_and_whether_the_intervals_overlap(
        double baseValue, double baseLow, double baseHigh, double newValue, double newLow, double newHigh, string verdict)
    {
        ResultCell before = Cell(Better.Higher, baseValue, baseLow, baseHigh);
        ResultCell after = Cell(Better.Higher, newValue, newLow, newHigh);

        Assert.Equal(Enum.Parse<ChangeVerdict>(verdict), RunComparison.Judge(before, after, threshold: 0.05));
    }

    [Fact]
    public void A_latency_that_grows_is_slower_and_one_that_shrinks_is_faster()
    {
        ResultCell before = Cell(Better.Lower, 1_000, 950, 1_050);
        ResultCell after = Cell(Better.Lower, 2_000, 1_900, 2_100);

        Assert.Equal(ChangeVerdict.Slower, RunComparison.Judge(before, after, 0.05));
        Assert.Equal(ChangeVerdict.Faster, RunComparison.Judge(after, before, 0.05));
    }

    [Fact]
    public void Cells_only_one_run_holds_are_listed_and_only_a_slower_cell_is_a_regression()
    {
        ResultCell shared = Cell(Better.Higher, 100, 95, 105);
        ResultCell onlyBase = shared with { Run = "LMDB / YCSB-A / 1,000 records / 1 threads" };
        ResultCell onlyNew = shared with { Run = "RocksDB / YCSB-A / 1,000 records / 1 threads" };

        RunComparison comparison = RunComparison.Compare([shared, onlyBase], [shared with { Value = 130, Low = 125, High = 135 }, onlyNew], 0.05);

        Assert.Equal(ChangeVerdict.Faster, Assert.Single(comparison.Changes).Verdict);
        Assert.Equal([onlyBase], comparison.OnlyInBase);
        Assert.Equal([onlyNew], comparison.OnlyInNew);
        Assert.False(comparison.Regressed);
        string markdown = comparison.ToMarkdown("base.json", "new.json");
        Assert.Contains("0 same, 1 faster, 0 slower, 0 undecided", markdown, StringComparison.Ordinal);
        Assert.Contains($"Only in base.json: {onlyBase.Key}.", markdown, StringComparison.Ordinal);
        Assert.Contains($"Only in new.json: {onlyNew.Key}.", markdown, StringComparison.Ordinal);
    }

    private static ResultCell Cell(Better better, double value, double low, double high) =>
        new("Memory / YCSB-A / 1,000 records / 1 threads", better == Better.Higher ? "throughput" : "p99", "x", better, value, low, high, Samples: 3);
}
