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

    /// <summary>Resamples per interval: enough that the 2.5th and 97.5th percentiles move by under 1% between random streams.</summary>
    private const int Resamples = 2_000;

    /// <summary>Fixed, so the same iterations always give the same interval (MEASURING: data from fixed random streams).</summary>
    private const int RandomStream = 20_261_124;

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

        var random = new Random(RandomStream);
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
    /// The ratio measured in several processes (<paramref name="processes"/>: each one's rounds) and its interval: each
    /// process counts once, by the median of its rounds, and the ratio is the geometric mean of those medians, with
    /// Student's t interval of their logarithms (<see langword="null"/> with fewer than two processes). A process, not a
    /// round, is the unit: what differs between processes (code layout, which pages the heap got, the JIT's choices)
    /// holds for all of one process's rounds and moves fast rows by more than the 10% goal, so one process's rounds can
    /// all sit on one side of another's. A bootstrap over so few processes could not reach past the ones it drew, and
    /// two default runs then disagreed on verdicts that this interval keeps apart.
    /// </summary>
    public static (double Ratio, (double Low, double High)? Interval) OfProcesses(IReadOnlyList<IReadOnlyList<double>> processes)
    {
        ArgumentNullException.ThrowIfNull(processes);
        double[] logs = [.. processes.Where(rounds => rounds.Count > 0).Select(rounds => Math.Log(Median([.. rounds.Order()])))];
        if (logs.Length == 0)
        {
            return (double.NaN, null);
        }

        double mean = logs.Average();
        if (logs.Length < 2)
        {
            return (Math.Exp(mean), null);
        }

        double variance = logs.Sum(log => (log - mean) * (log - mean)) / (logs.Length - 1);
        double halfWidth = StudentT975(logs.Length - 1) * Math.Sqrt(variance / logs.Length);
        return (Math.Exp(mean), (Math.Exp(mean - halfWidth), Math.Exp(mean + halfWidth)));
    }

    /// <summary>The 97.5th percentile of Student's t with <paramref name="degrees"/> degrees of freedom: a two-sided 95% interval.</summary>
    internal static double StudentT975(int degrees)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(degrees);
        return degrees <= s_studentT975.Length ? s_studentT975[degrees - 1] : 1.96;
    }

    /// <summary>Student's t at 97.5% for 1 to 30 degrees of freedom (the normal's 1.96 beyond).</summary>
    private static readonly double[] s_studentT975 =
    [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];

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
