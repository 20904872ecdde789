namespace KvBench.Evaluation.Measuring;

/// <summary>One row's median divided by its reference row's median, for one method and value size, from one run.</summary>
/// <param name="Method">One of <see cref="PointMethods"/>.</param>
/// <param name="ValueBytes">The value size.</param>
/// <param name="Row">The row measured.</param>
/// <param name="Reference">What it is divided by (<see cref="RowVariants.ReferenceOf"/>).</param>
/// <param name="Value">The ratio: above 1 means the row is slower than its reference.</param>
public sealed record RowRatio(string Method, int ValueBytes, string Row, string Reference, double Value);

/// <summary>Ratios of medians between rows of one run: adapter ÷ raw driver, naive ÷ tuned adapter.</summary>
public static class PointRatios
{
    /// <summary>Every ratio whose row and reference were both measured, in the order of <paramref name="results"/>.</summary>
    public static IReadOnlyList<RowRatio> Compute(IEnumerable<PointResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        Dictionary<(string Method, string Row, int ValueBytes), PointResult> byCase = list
            .GroupBy(result => (result.Method, result.Row, result.ValueBytes))
            .ToDictionary(group => group.Key, group => group.First());
        var ratios = new List<RowRatio>();
        foreach (PointResult result in list)
        {
            if (RowVariants.ReferenceOf(result.Row) is { } reference
                && byCase.TryGetValue((result.Method, reference, result.ValueBytes), out PointResult? baseline)
                && baseline.MedianNanoseconds > 0)
            {
                ratios.Add(new(result.Method, result.ValueBytes, result.Row, reference, result.MedianNanoseconds / baseline.MedianNanoseconds));
            }
        }

        return ratios;
    }
}
