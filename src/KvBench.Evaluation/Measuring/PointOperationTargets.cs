namespace KvBench.Evaluation.Measuring;

/// <summary>One goal checked against one measurement.</summary>
/// <param name="Row">The adapter row.</param>
/// <param name="Method">One of <see cref="PointMethods"/>.</param>
/// <param name="ValueBytes">The value size.</param>
/// <param name="Goal">The goal, as a reader would say it.</param>
/// <param name="Measured">What was measured, formatted.</param>
/// <param name="Met">Whether the measurement meets the goal.</param>
public sealed record TargetCheck(string Row, string Method, int ValueBytes, string Goal, string Measured, bool Met);

/// <summary>
/// What KvBench promises about its adapters' point operations, checked on the numbers of one run:
/// <c>Put</c>, <c>Get</c> (TryGet into a reused buffer) and <c>HaveKey</c> allocate nothing, <c>GetArray</c> allocates no
/// more than the array it returns, and the adapter costs at most <see cref="MaxAdapterOverRaw"/> times its raw driver.
/// </summary>
public static class PointOperationTargets
{
    /// <summary>The most an adapter may cost over its raw-driver baseline: 10%.</summary>
    public const double MaxAdapterOverRaw = 1.10;

    /// <summary>The methods whose adapter ÷ raw ratio has a goal.</summary>
    public static IReadOnlyList<string> RatioMethods { get; } = [PointMethods.Put, PointMethods.Get, PointMethods.HaveKey];

    /// <summary>
    /// The bytes a 64-bit runtime allocates for a <c>byte[]</c> of <paramref name="length"/>: 24 bytes of header
    /// (object header, method table, length) plus the data, rounded up to 8.
    /// </summary>
    public static long ArrayBytes(int length) => (24L + length + 7) & ~7L;

    /// <summary>The most an adapter's <paramref name="method"/> may allocate per operation, or <see langword="null"/> when it has no goal.</summary>
    public static long? AllocationLimit(string method, int valueBytes) => method switch
    {
        PointMethods.Put or PointMethods.Get or PointMethods.HaveKey => 0,
        PointMethods.GetArray => ArrayBytes(valueBytes),
        _ => null,
    };

    /// <summary>Every goal that <paramref name="results"/> can check, for adapter rows.</summary>
    public static IReadOnlyList<TargetCheck> Check(IEnumerable<PointResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        var checks = new List<TargetCheck>();
        foreach (PointResult result in list.Where(result => RowVariants.Parse(result.Row).Kind == RowVariantKind.Adapter))
        {
            if (AllocationLimit(result.Method, result.ValueBytes) is { } limit && result.AllocatedBytes is { } allocated)
            {
                checks.Add(new(result.Row, result.Method, result.ValueBytes, $"allocates ≤ {limit} B", $"{allocated} B", allocated <= limit));
            }
        }

        foreach (RowRatio ratio in PointRatios.Compute(list).Where(ratio => RatioMethods.Contains(ratio.Method) && RowVariants.Parse(ratio.Row).Kind == RowVariantKind.Adapter))
        {
            checks.Add(new(ratio.Row, ratio.Method, ratio.ValueBytes, $"adapter ÷ raw ≤ {MaxAdapterOverRaw:0.00}", $"{ratio.Value:0.00}", ratio.Value <= MaxAdapterOverRaw));
        }

        return checks;
    }
}
