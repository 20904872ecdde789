using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks.Targets;

/// <summary>
/// Every point-operation row: each catalog row that can be opened here, followed by the raw-driver baseline and naive
/// usage its definition creates (<see cref="StoreRow.Baselines"/>). A baseline of a row that is unavailable here is left
/// out with its row.
/// </summary>
internal static class PointTargets
{
    private static readonly Dictionary<string, PointBaseline> s_baselines = StoreCatalog.Rows.Concat(StoreCatalog.ServerRows)
        .SelectMany(row => row.Baselines.Select(baseline => (Name: RowVariants.Name(row.Name, baseline.Kind), Baseline: baseline)))
        .ToDictionary(found => found.Name, found => found.Baseline, StringComparer.Ordinal);

    /// <summary>Whether a run measures <paramref name="name"/> at <paramref name="valueBytes"/> (see <see cref="PointBaseline.OnlyValueBytes"/>).</summary>
    public static bool Measures(string name, int valueBytes) =>
        !s_baselines.TryGetValue(name, out PointBaseline? baseline) || baseline.OnlyValueBytes is 0 || baseline.OnlyValueBytes == valueBytes;

    /// <summary>Every embedded row in table order: a catalog row, then its raw baseline, then its naive usage.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. StoreCatalog.Rows.Where(row => row.IsAvailable).SelectMany(VariantsOf)];

    /// <summary>
    /// Every server row whose server can be had here (KvBench's, installed when missing, or the user's), each followed by
    /// its raw baseline: the server rows' point operations (<see cref="ServerPointOperations"/>).
    /// </summary>
    public static IReadOnlyList<string> ServerNames => [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable).SelectMany(VariantsOf)];

    /// <summary>
    /// Whether many threads may call <paramref name="name"/> at once: every catalog row (the contract promises it), and
    /// the baselines that say so (<see cref="PointBaseline.ManyThreads"/>).
    /// </summary>
    public static bool ServesManyThreads(string name) =>
        !s_baselines.TryGetValue(name, out PointBaseline? baseline) || baseline.ManyThreads;

    /// <summary>
    /// The tier <paramref name="name"/> is measured at by a benchmark that measures at <paramref name="measuredAt"/>
    /// (<see cref="MeasuredAtAttribute"/>): see <see cref="StoreRow.MeasuredTier"/>.
    /// </summary>
    public static Durability TierOf(string name, Durability measuredAt = Durability.Buffered) =>
        StoreCatalog.Row(RowVariants.Parse(name).Row).MeasuredTier(measuredAt);

    /// <summary>Opens <paramref name="name"/> on an empty <paramref name="directory"/> at its tier (<see cref="TierOf"/>).</summary>
    public static IPointTarget Open(string name, string directory) =>
        s_baselines.TryGetValue(name, out PointBaseline? baseline)
            ? baseline.Open(directory)
            : new StoreTarget(StoreCatalog.Open(name, new StoreOptions { Directory = directory, Durability = TierOf(name) }));

    /// <summary>The row, then the baselines its definition creates.</summary>
    private static IEnumerable<string> VariantsOf(StoreRow row) =>
        [row.Name, .. row.Baselines.Select(baseline => RowVariants.Name(row.Name, baseline.Kind))];
}
