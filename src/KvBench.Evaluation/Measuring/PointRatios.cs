using System.Globalization;

using KvBench.Stores.Baselines;

namespace KvBench.Evaluation.Measuring;

/// <summary>One row's median divided by its reference row's median, for one method and value size, from one run.</summary>
/// <param name="Method">One of <see cref="PointMethods"/>.</param>
/// <param name="ValueBytes">The value size.</param>
/// <param name="Row">The row measured.</param>
/// <param name="Reference">What it is divided by (<see cref="RowVariants.ReferenceOf"/>).</param>
/// <param name="Value">The ratio: above 1 means the row is slower than its reference.</param>
/// <param name="Interval">
/// The ratio's <see cref="RatioInterval.Confidence"/> confidence interval over both rows' iterations, or
/// <see langword="null"/> when the run kept too few iterations to resample.
/// </param>
/// <param name="Threads">How many threads called at once, in both rows.</param>
/// <param name="CallTime">
/// The reference's time per call and what the row added to it, where the ratio was measured paired; otherwise
/// <see langword="null"/>.
/// </param>
/// <param name="Processes">How many processes the ratio was measured in, where it was measured paired; otherwise 0.</param>
public sealed record RowRatio(
    string Method,
    int ValueBytes,
    string Row,
    string Reference,
    double Value,
    (double Low, double High)? Interval = null,
    int Threads = 1,
    CallTime? CallTime = null,
    int Processes = 0)
{
    /// <summary>The ratio with its interval, as the tables print it: "1.04 (0.98–1.09)".</summary>
    public string Formatted => Interval is { } interval
        ? string.Create(CultureInfo.InvariantCulture, $"{Value:0.00} ({interval.Low:0.00}–{interval.High:0.00})")
        : string.Create(CultureInfo.InvariantCulture, $"{Value:0.00}");
}

/// <summary>A reference's time per call and what a row added to it, each a median over the measured rounds.</summary>
/// <param name="ReferenceNanoseconds">The reference's time per call.</param>
/// <param name="AddedNanoseconds">The row's time per call minus the reference's, in the same round; negative when the row was faster.</param>
public sealed record CallTime(double ReferenceNanoseconds, double AddedNanoseconds)
{
    /// <summary>As the tables print it: "+31 ns on 152 ns".</summary>
    public string Formatted => string.Create(CultureInfo.InvariantCulture, $"{AddedNanoseconds:+0;-0;0} ns on {ReferenceNanoseconds:0} ns");
}

/// <summary>Ratios of medians between rows of one run, with their confidence intervals: adapter ÷ raw driver, naive ÷ tuned adapter.</summary>
public static class PointRatios
{
    /// <summary>Every ratio whose row and reference were both measured, in the order of <paramref name="results"/>.</summary>
    public static IReadOnlyList<RowRatio> Compute(IEnumerable<PointResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        Dictionary<(string Method, string Row, int ValueBytes, int Threads), PointResult> byCase = list
            .GroupBy(result => (result.Method, result.Row, result.ValueBytes, result.Threads))
            .ToDictionary(group => group.Key, group => group.First());
        var ratios = new List<RowRatio>();
        foreach (PointResult result in list)
        {
            if (RowVariants.ReferenceOf(result.Row) is { } reference
                && byCase.TryGetValue((result.Method, reference, result.ValueBytes, result.Threads), out PointResult? baseline)
                && baseline.MedianNanoseconds > 0)
            {
                ratios.Add(new(
                    result.Method,
                    result.ValueBytes,
                    result.Row,
                    reference,
                    result.MedianNanoseconds / baseline.MedianNanoseconds,
                    RatioInterval.Of(result.IterationNanoseconds ?? [], baseline.IterationNanoseconds ?? []),
                    result.Threads));
            }
        }

        return ratios;
    }
}
