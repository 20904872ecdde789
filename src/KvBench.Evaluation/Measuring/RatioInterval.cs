namespace KvBench.Evaluation.Measuring;

/// <summary>
/// A percentile-bootstrap confidence interval for the ratio of two rows' medians, from the per-operation times of their
/// iterations: each resample draws every row's iterations again with replacement and divides the two medians. With ten
/// iterations a side, the interval is as wide as the iterations are noisy, so a verdict drawn from it holds where a
/// single median ratio flips between runs.
/// </summary>
public static class RatioInterval
{
    /// <summary>The share of resampled ratios the interval holds: 95%.</summary>
    public const double Confidence = 0.95;

    /// <summary>Resamples per interval: enough that the 2.5th and 97.5th percentiles move by under 1% between seeds.</summary>
    private const int Resamples = 2_000;

    /// <summary>Fixed, so the same iterations always give the same interval (MEASURING: data from fixed seeds).</summary>
    private const int Seed = 20_261_124;

    /// <summary>
    /// The interval of median(<paramref name="row"/>) ÷ median(<paramref name="reference"/>), or
    /// <see langword="null"/> when either side has fewer than two iterations to resample.
    /// </summary>
    public static (double Low, double High)? Of(IReadOnlyList<double> row, IReadOnlyList<double> reference)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(reference);
        if (row.Count < 2 || reference.Count < 2)
        {
            return null;
        }

        var random = new Random(Seed);
        double[] ratios = new double[Resamples];
        double[] rowSample = new double[row.Count];
        double[] referenceSample = new double[reference.Count];
        for (int i = 0; i < Resamples; i++)
        {
            double denominator = ResampledMedian(reference, referenceSample, random);
            ratios[i] = denominator > 0 ? ResampledMedian(row, rowSample, random) / denominator : double.PositiveInfinity;
        }

        Array.Sort(ratios);
        double tail = (1 - Confidence) / 2;
        return (Percentile(ratios, tail), Percentile(ratios, 1 - tail));
    }

    /// <summary>
    /// The interval of the median of <paramref name="clusters"/>' pooled values (ratios measured paired, one cluster per
    /// process), and that median; <see langword="null"/> for the interval when fewer than two values were measured.
    /// Each resample draws the clusters again with replacement and then each drawn cluster's values, so what differs
    /// between processes (code layout, which pages the heap got, the JIT's profile) widens the interval as the noise
    /// within a process does: with two processes, an interval wholly on one side of a goal says both processes were.
    /// </summary>
    public static (double Median, (double Low, double High)? Interval) OfClusters(IReadOnlyList<IReadOnlyList<double>> clusters)
    {
        ArgumentNullException.ThrowIfNull(clusters);
        List<IReadOnlyList<double>> measured = [.. clusters.Where(cluster => cluster.Count > 0)];
        double[] pooled = [.. measured.SelectMany(cluster => cluster)];
        if (pooled.Length == 0)
        {
            return (double.NaN, null);
        }

        Array.Sort(pooled);
        if (pooled.Length < 2)
        {
            return (Median(pooled), null);
        }

        var random = new Random(Seed);
        double[] medians = new double[Resamples];
        var sample = new List<double>(pooled.Length);
        for (int i = 0; i < Resamples; i++)
        {
            sample.Clear();
            for (int c = 0; c < measured.Count; c++)
            {
                IReadOnlyList<double> cluster = measured[random.Next(measured.Count)];
                for (int v = 0; v < cluster.Count; v++)
                {
                    sample.Add(cluster[random.Next(cluster.Count)]);
                }
            }

            sample.Sort();
            medians[i] = Median(sample);
        }

        Array.Sort(medians);
        double tail = (1 - Confidence) / 2;
        return (Median(pooled), (Percentile(medians, tail), Percentile(medians, 1 - tail)));
    }

    /// <summary>The median of a sorted list, the mean of the middle two for an even count.</summary>
    public static double Median(IReadOnlyList<double> sorted)
    {
        ArgumentNullException.ThrowIfNull(sorted);
        int middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static double ResampledMedian(IReadOnlyList<double> values, double[] sample, Random random)
    {
        for (int i = 0; i < sample.Length; i++)
        {
            sample[i] = values[random.Next(values.Count)];
        }

        Array.Sort(sample);
        return Median(sample);
    }

    /// <summary>The <paramref name="quantile"/> of sorted values, by the nearest rank.</summary>
    private static double Percentile(double[] sorted, double quantile) =>
        sorted[Math.Clamp((int)Math.Ceiling(quantile * sorted.Length) - 1, 0, sorted.Length - 1)];
}
