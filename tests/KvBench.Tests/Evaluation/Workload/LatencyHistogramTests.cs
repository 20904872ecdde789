using KvBench.Evaluation.Workload;


namespace KvBench.Tests.Evaluation.Workload;

public sealed class LatencyHistogramTests
{
    public static TheoryData<string> Shapes => new() { "uniform", "lognormal", "bimodal" };

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Percentiles_are_within_half_a_percent_of_the_exact_ones_of_the_sorted_samples(string shape)
    {
        var random = new Random(20_261_122);
        long[] samples = [.. Enumerable.Range(0, 200_000).Select(_ => Sample(shape, random))];
        var histogram = new LatencyHistogram();
        foreach (long sample in samples)
        {
            histogram.Record(sample);
        }

        Array.Sort(samples);
        foreach (double percentile in (double[])[1, 10, 50, 90, 95, 99, 99.9, 99.99])
        {
            long exact = samples[(int)Math.Ceiling(percentile / 100 * samples.Length) - 1];
            double measured = histogram.ValueAt(percentile);
            Assert.True(Math.Abs(measured - exact) <= exact * 0.005, $"{shape} p{percentile}: {measured} against exact {exact}.");
        }

        Assert.Equal(samples[^1], histogram.Max);
        Assert.Equal(samples[0], histogram.Min);
        Assert.Equal(samples.Average(), histogram.Mean, precision: 6);
    }

    [Theory]
    [MemberData(nameof(Shapes))]
    public void The_HdrHistogram_it_converts_to_has_its_counts_bucket_for_bucket(string shape)
    {
        var random = new Random(20_261_122);
        var histogram = new LatencyHistogram();
        for (int i = 0; i < 100_000; i++)
        {
            histogram.Record(Sample(shape, random));
        }

        HdrHistogram.LongHistogram hdr = histogram.ToHdrHistogram();

        Assert.Equal(histogram.Count, hdr.TotalCount);
        foreach (double percentile in (double[])[1, 10, 50, 90, 95, 99, 99.9])
        {
            // Both layouts put 128 buckets in each power of two's upper half: a value and its bucket's middle are a
            // 256th of the value apart at most, and HdrHistogram's highest equivalent value ends the same bucket.
            double ours = histogram.ValueAt(percentile);
            long theirs = hdr.GetValueAtPercentile(percentile);
            Assert.True(
                hdr.LowestEquivalentValue((long)ours) == hdr.LowestEquivalentValue(theirs),
                $"{shape} p{percentile}: {ours} against HdrHistogram's {theirs}.");
        }
    }

    [Fact]
    public void Merged_histograms_report_what_one_histogram_of_every_value_reports()
    {
        var random = new Random(7);
        var whole = new LatencyHistogram();
        var parts = new[] { new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram() };
        for (int i = 0; i < 30_000; i++)
        {
            long value = random.NextInt64(1, 10_000_000);
            whole.Record(value);
            parts[i % 3].Record(value);
        }

        var merged = new LatencyHistogram();
        foreach (LatencyHistogram part in parts)
        {
            merged.Add(part);
        }

        Assert.Equal(whole.Summarize(), merged.Summarize());
    }

    [Fact]
    public void Small_values_are_exact_and_huge_ones_fit()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(0);
        histogram.Record(1);
        histogram.Record(127);
        histogram.Record(long.MaxValue);

        Assert.Equal(0, histogram.ValueAt(25));
        Assert.Equal(1, histogram.ValueAt(50));
        Assert.Equal(127, histogram.ValueAt(75));
        Assert.Equal(long.MaxValue, histogram.ValueAt(100));
    }

    [Fact]
    public void Recording_allocates_nothing()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(1_000);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++)
        {
            histogram.Record(i * 997L);
        }

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }

    private static long Sample(string shape, Random random) => shape switch
    {
        "uniform" => random.NextInt64(50, 5_000_000),
        "lognormal" => (long)Math.Exp(8 + (1.5 * Normal(random))),
        _ => random.NextDouble() < 0.99 ? random.NextInt64(200, 400) : random.NextInt64(1_000_000, 3_000_000),
    };

    private static double Normal(Random random) => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
