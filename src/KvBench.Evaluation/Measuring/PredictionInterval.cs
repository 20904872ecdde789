namespace KvBench.Evaluation.Measuring;

/// <summary>
/// Where a further sample of a figure that varies is expected 95% of the time: Student's t prediction interval over the
/// samples' logarithms (over the samples themselves when one is zero), never narrower than the least to the most
/// measured, around their median.
/// </summary>
/// <remarks>
/// The least to the most of a few samples is where a further one lands only about as often as not (of three, half the
/// time), so two runs each read a change that a third run did not repeat. The prediction interval answers what another
/// run would measure; a confidence interval of the mean would answer only how well this run knows its own mean.
/// </remarks>
internal static class PredictionInterval
{
    /// <summary>
    /// The median of <paramref name="samples"/> in its prediction interval; with one sample the interval is that sample, and
    /// nothing says how far a further one would land.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="samples"/> is empty.</exception>
    public static (double Median, double Low, double High) Of(IReadOnlyList<double> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        if (samples.Count == 0)
        {
            throw new ArgumentException("A prediction interval needs at least one sample.", nameof(samples));
        }

        double[] sorted = [.. samples.Order()];
        double median = RatioInterval.Median(sorted);
        if (sorted.Length == 1)
        {
            return (median, median, median);
        }

        bool positive = sorted[0] > 0;
        double[] scaled = positive ? [.. sorted.Select(value => Math.Log(value))] : sorted;
        double mean = scaled.Average();
        double deviation = Math.Sqrt(scaled.Sum(value => (value - mean) * (value - mean)) / (scaled.Length - 1));
        double halfWidth = RatioInterval.StudentT975(scaled.Length - 1) * deviation * Math.Sqrt(1 + (1.0 / scaled.Length));
        (double low, double high) = halfWidth == 0 ? (sorted[0], sorted[^1])
            : positive ? (Math.Exp(mean - halfWidth), Math.Exp(mean + halfWidth))
            : (Math.Max(0, mean - halfWidth), mean + halfWidth);
        return (median, Math.Min(low, sorted[0]), Math.Max(high, sorted[^1]));
    }
}
