using System.Buffers;
using System.Reflection;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks.Targets;

/// <summary>
/// Every point-operation row: each catalog row that can be opened here, followed by the raw-driver baseline and naive
/// usage its definition names (<see cref="StoreRow.HasRawBaseline"/>, <see cref="StoreRow.HasNaiveUsage"/>), each a
/// class marked <see cref="PointVariantAttribute"/> in this assembly. A variant of a row that is unavailable here is left
/// out with its row.
/// </summary>
internal static class PointTargets
{
    private static readonly Dictionary<string, Type> s_variants = typeof(PointTargets).Assembly.GetTypes()
        .Select(type => (Type: type, Variant: type.GetCustomAttribute<PointVariantAttribute>()))
        .Where(found =>
            found.Variant is not null
                && (StoreCatalog.AvailableNames.Contains(found.Variant.Row) || StoreCatalog.AvailableServerNames.Contains(found.Variant.Row)))
        .ToDictionary(found => RowVariants.Name(found.Variant!.Row, found.Variant.Kind), found => found.Type, StringComparer.Ordinal);

    /// <summary>
    /// TryGet for a target whose read returns an array (a naive usage, or a package whose read does): writes
    /// <paramref name="value"/> into <paramref name="destination"/> when there is one.
    /// </summary>
    public static bool CopyFound(byte[]? value, IBufferWriter<byte> destination)
    {
        if (value is null)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    /// <summary>
    /// Whether a run measures <paramref name="name"/> at <paramref name="valueBytes"/> (see
    /// <see cref="PointVariantAttribute.OnlyValueBytes"/>).
    /// </summary>
    public static bool Measures(string name, int valueBytes) =>
        !s_variants.TryGetValue(name, out Type? type)
        || type.GetCustomAttribute<PointVariantAttribute>()!.OnlyValueBytes is 0
        || type.GetCustomAttribute<PointVariantAttribute>()!.OnlyValueBytes == valueBytes;

    /// <summary>Every embedded row in table order: a catalog row, then its raw baseline, then its naive usage.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. StoreCatalog.Rows.Where(row => row.IsAvailable).SelectMany(VariantsOf)];

    /// <summary>
    /// Every server row whose server can be had here (KvBench's, installed when missing, or the user's), each followed by
    /// its raw baseline: the server rows' point operations (<see cref="ServerPointOperations"/>).
    /// </summary>
    public static IReadOnlyList<string> ServerNames => [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable).SelectMany(VariantsOf)];

    /// <summary>
    /// Where the catalog and this assembly disagree: a variant a row's definition names with no class marked for it, or a
    /// class marked for a variant its row does not name (which no run would measure). Empty when they agree.
    /// </summary>
    public static IReadOnlyList<string> Mismatches()
    {
        HashSet<string> declared = [
            .. StoreCatalog.Rows.Concat(StoreCatalog.ServerRows).SelectMany(VariantsOf).Where(name =>
                RowVariants.Parse(name).Kind != RowVariantKind.Adapter)];
        HashSet<string> found = [.. typeof(PointTargets).Assembly.GetTypes()
            .Select(type => type.GetCustomAttribute<PointVariantAttribute>())
            .OfType<PointVariantAttribute>()
            .Select(variant => RowVariants.Name(variant.Row, variant.Kind))];
        return [
            .. declared.Except(found).Order(StringComparer.Ordinal).Select(name =>
                $"{name} is named by its row's definition, but no class is marked [PointVariant] for it."),
            .. found.Except(declared).Order(StringComparer.Ordinal).Select(name =>
                $"{name} has a class marked [PointVariant], but its row's definition does not name it."),
        ];
    }

    /// <summary>
    /// Whether many threads may call <paramref name="name"/> at once: every catalog row (the contract promises it), and
    /// the variants marked <see cref="PointVariantAttribute.ManyThreads"/>.
    /// </summary>
    public static bool ServesManyThreads(string name) =>
        !s_variants.TryGetValue(name, out Type? type) || type.GetCustomAttribute<PointVariantAttribute>()!.ManyThreads;

    /// <summary>
    /// The tier <paramref name="name"/> is measured at by a benchmark that measures at <paramref name="measuredAt"/>
    /// (<see cref="MeasuredAtAttribute"/>): that tier where the row offers it, so no row pays a device flush that another
    /// does not; else the other tier, for a row that does not open at that one.
    /// </summary>
    public static Durability TierOf(string name, Durability measuredAt = Durability.Buffered) =>
        StoreCatalog.Row(RowVariants.Parse(name).Row).OpensAt(measuredAt) ? measuredAt
        : measuredAt == Durability.Buffered ? Durability.Synced : Durability.Buffered;

    /// <summary>Opens <paramref name="name"/> on an empty <paramref name="directory"/> at its tier (<see cref="TierOf"/>).</summary>
    public static IPointTarget Open(string name, string directory)
    {
        if (s_variants.TryGetValue(name, out Type? type))
        {
            return (IPointTarget)Activator.CreateInstance(
                type,
                BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DoNotWrapExceptions,
                binder: null, [directory], culture: null)!;
        }

        return new StoreTarget(StoreCatalog.Open(name, new StoreOptions { Directory = directory, Durability = TierOf(name) }));
    }

    /// <summary>The row, then the variants its definition names.</summary>
    private static IEnumerable<string> VariantsOf(StoreRow row)
    {
        yield return row.Name;
        if (row.HasRawBaseline)
        {
            yield return RowVariants.Name(row.Name, RowVariantKind.Raw);
        }

        if (row.HasNaiveUsage)
        {
            yield return RowVariants.Name(row.Name, RowVariantKind.Naive);
        }
    }
}
