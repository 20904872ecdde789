using KvBench.Stores.Baselines;

namespace KvBench.Evaluation.Measuring;

/// <summary>What a measurement says of a goal.</summary>
public enum GoalVerdict
{
    /// <summary>Met: for a ratio, its whole confidence interval is within the goal.</summary>
    Met,

    /// <summary>Missed: for a ratio, its whole confidence interval is beyond the goal.</summary>
    Missed,

    /// <summary>
    /// This run cannot tell, and another may well say either: a ratio's confidence interval straddles the goal, or an
    /// allocation is over its goal by less than the smallest object (<see cref="PointOperationTargets.AllocationVerdict"/>).
    /// </summary>
    Inconclusive,
}

/// <summary>One goal checked against one measurement.</summary>
/// <param name="Row">The adapter row.</param>
/// <param name="Method">One of <see cref="PointMethods"/>.</param>
/// <param name="ValueBytes">The value size.</param>
/// <param name="Goal">The goal, as a reader would say it.</param>
/// <param name="Measured">What was measured, formatted (a ratio with its confidence interval).</param>
/// <param name="Verdict">What the measurement says of the goal.</param>
public sealed record TargetCheck(string Row, string Method, int ValueBytes, string Goal, string Measured, GoalVerdict Verdict)
{
    /// <summary>Whether the goal was met.</summary>
    public bool Met => Verdict == GoalVerdict.Met;
}

/// <summary>
/// What KvBench promises about its adapters' point operations, checked on the numbers of one run:
/// <c>Put</c>, <c>Get</c> (TryGet into a reused buffer) and <c>HaveKey</c> allocate nothing, <c>GetArray</c> allocates no
/// more than the array it returns, and the adapter costs at most <see cref="MaxAdapterOverRaw"/> times its raw driver.
/// A ratio's verdict comes from its confidence interval, not its median alone: single medians of ten short iterations
/// move by more than the goal's 10% between two runs of the same build, so a median near 1.10 says "inconclusive",
/// not "met" or "missed".
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

    /// <summary>
    /// The verdict on <paramref name="allocated"/> bytes per operation against a goal of at most <paramref name="limit"/>:
    /// met at or under it, missed over it by a whole object or more, and inconclusive over it by less. No object on a
    /// 64-bit runtime is smaller than an empty array's 24 bytes, so an average excess below that is an allocation some
    /// operations make and others do not (a pool growing, a buffer rented), spread over the iteration's operations: how
    /// many it shows depends on how many operations the iteration ran, and runs of one build read 0 B in one and 2 B in
    /// the next. Calling the one met and the other missed would let two runs contradict each other.
    /// </summary>
    public static GoalVerdict AllocationVerdict(long allocated, long limit) =>
        allocated <= limit ? GoalVerdict.Met : allocated - limit < ArrayBytes(0) ? GoalVerdict.Inconclusive : GoalVerdict.Missed;

    /// <summary>The most an adapter's <paramref name="method"/> may allocate per operation, or <see langword="null"/> when it has no goal.</summary>
    public static long? AllocationLimit(string method, int valueBytes) => method switch
    {
        PointMethods.Put or PointMethods.Get or PointMethods.HaveKey => 0,
        PointMethods.GetArray => ArrayBytes(valueBytes),
        _ => null,
    };

    /// <summary>
    /// Every goal that <paramref name="results"/> can check, for adapter rows: allocations from the results, adapter ÷
    /// raw from <paramref name="adapterRatios"/> when given (a paired measurement), else from the results' medians.
    /// </summary>
    /// <param name="results">The measured cases.</param>
    /// <param name="adapterRatios">Adapter ÷ raw ratios measured paired, or <see langword="null"/> for the results' own.</param>
    /// <param name="allocationsAgainstRaw">
    /// Whether an adapter's allocations are held to its raw baseline's, not to <see cref="AllocationLimit"/>: a server's
    /// client allocates for every request it sends whoever calls it, so the adapter's goal is to add nothing to that.
    /// </param>
    public static IReadOnlyList<TargetCheck> Check(
        IEnumerable<PointResult> results,
        IReadOnlyList<RowRatio>? adapterRatios = null,
        bool allocationsAgainstRaw = false)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        var checks = new List<TargetCheck>();
        foreach (PointResult result in list.Where(result => RowVariants.Parse(result.Row).Kind == RowVariantKind.Adapter))
        {
            if (result.AllocatedBytes is not { } allocated)
            {
                continue;
            }

            if (!allocationsAgainstRaw && AllocationLimit(result.Method, result.ValueBytes) is { } limit)
            {
                checks.Add(
                    new(
                        result.Row, result.Method, result.ValueBytes, $"allocates ≤ {limit} B", $"{allocated} B",
                        AllocationVerdict(allocated, limit)));
            }
            else if (allocationsAgainstRaw && RatioMethods.Contains(result.Method) && RawOf(list, result)?.AllocatedBytes is { } rawAllocated)
            {
                checks.Add(
                    new(
                        result.Row,
                        result.Method,
                        result.ValueBytes,
                        $"allocates ≤ the raw client's {rawAllocated} B",
                        $"{allocated} B",
                        AllocationVerdict(allocated, rawAllocated)));
            }
        }

        foreach (RowRatio ratio in (adapterRatios ?? PointRatios.Compute(list)).Where(ratio =>
            RatioMethods.Contains(ratio.Method) && RowVariants.Parse(ratio.Row).Kind == RowVariantKind.Adapter))
        {
            string threads = ratio.Threads == 1 ? string.Empty : $" at {ratio.Threads} threads";
            string processes = ratio.Processes > 0 ? $", {ratio.Processes} processes" : string.Empty;
            checks.Add(
                new(
                    ratio.Row,
                    ratio.Method,
                    ratio.ValueBytes,
                    $"adapter ÷ raw ≤ {MaxAdapterOverRaw:0.00}{threads}",
                    ratio.Formatted + processes,
                    RatioVerdict(ratio.Value, ratio.Interval)));
        }

        return checks;
    }

    /// <summary>The raw baseline's result for the same method, value size and threads as <paramref name="adapter"/>, if it was measured.</summary>
    private static PointResult? RawOf(List<PointResult> results, PointResult adapter) =>
        results.FirstOrDefault(result => result.Row == RowVariants.Name(adapter.Row, RowVariantKind.Raw)
            && result.Method == adapter.Method && result.ValueBytes == adapter.ValueBytes && result.Threads == adapter.Threads);

    /// <summary>
    /// The verdict on an adapter ÷ raw <paramref name="ratio"/>: met when the whole <paramref name="interval"/> is at or
    /// under <see cref="MaxAdapterOverRaw"/>, missed when it is wholly above, inconclusive when it straddles; a ratio
    /// without an interval (too few iterations) is judged on itself.
    /// </summary>
    public static GoalVerdict RatioVerdict(double ratio, (double Low, double High)? interval)
    {
        (double low, double high) = interval ?? (ratio, ratio);
        return high <= MaxAdapterOverRaw ? GoalVerdict.Met
            : low > MaxAdapterOverRaw ? GoalVerdict.Missed
            : GoalVerdict.Inconclusive;
    }
}
