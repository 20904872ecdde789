using KvBench.Evaluation.Probes;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>The scan probe's arithmetic on timings whose shape is known, so its verdicts do not depend on this machine's noise.</summary>
public sealed class PrefixScanClassificationTests
{
    private static readonly IReadOnlyList<int> s_sizes = ProbeSettings.Default.ScanStoreSizes;

    [Fact]
    public void A_seek_whose_cost_grows_with_the_tree_depth_is_an_ordered_index()
    {
        // A B-tree seek: a fixed cost plus one step per level of a fan-out-100 tree.
        ScanMeasurement scan = Measure(records => 2_000 + (300 * Math.Ceiling(Math.Log(records, 100))));

        Assert.Equal(ScanVerdict.OrderedIndex, scan.Verdict);
        Assert.InRange(scan.Exponent, 0, 0.1);
    }

    [Fact]
    public void A_full_scan_with_a_setup_cost_the_size_of_the_smallest_store_is_still_a_full_scan()
    {
        // Memory's shape: a per-record step plus a setup as large as scanning the smallest store.
        ScanMeasurement scan = Measure(records => (20.0 * s_sizes[0]) + (20.0 * records));

        Assert.Equal(ScanVerdict.FullScan, scan.Verdict);
        Assert.InRange(scan.Exponent, 0.8, 1.0);
    }

    [Fact]
    public void Growth_like_the_square_root_of_the_size_is_inconclusive_and_contradicts_no_claim()
    {
        ScanMeasurement scan = Measure(records => 100 * Math.Sqrt(records));

        Assert.Equal(ScanVerdict.Inconclusive, scan.Verdict);
        Assert.Null(scan.Indexed);
        Assert.Equal(256, scan.SizeRatio);
    }

    [Theory]
    [InlineData(0.35, ScanVerdict.OrderedIndex)]
    [InlineData(0.36, ScanVerdict.Inconclusive)]
    [InlineData(0.64, ScanVerdict.Inconclusive)]
    [InlineData(0.65, ScanVerdict.FullScan)]
    [InlineData(-0.2, ScanVerdict.OrderedIndex)]
    public void The_thresholds_split_the_exponents(double exponent, ScanVerdict verdict) =>
        Assert.Equal(verdict, PrefixScanProbe.Classify(exponent));

    private static ScanMeasurement Measure(Func<int, double> nanoseconds) =>
        ScanMeasurement.FromTimings([.. s_sizes.Select(size => new ScanTiming(size, nanoseconds(size)))], rounds: 1);
}
