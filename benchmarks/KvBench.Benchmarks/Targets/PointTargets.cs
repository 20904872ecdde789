using System.Buffers;
using System.Reflection;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks.Targets;

/// <summary>
/// Every point-operation row: each catalog row that can be opened here, followed by its raw-driver baseline and naive
/// usages (classes marked <see cref="PointVariantAttribute"/> in this assembly). A variant of a row that is unavailable
/// here is left out with its row.
/// </summary>
internal static class PointTargets
{
    private static readonly Dictionary<string, Type> s_variants = typeof(PointTargets).Assembly.GetTypes()
        .Select(type => (Type: type, Variant: type.GetCustomAttribute<PointVariantAttribute>()))
        .Where(found => found.Variant is not null && StoreCatalog.AvailableNames.Contains(found.Variant.Row))
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

    /// <summary>Whether a run measures <paramref name="name"/> at <paramref name="valueBytes"/> (see <see cref="PointVariantAttribute.OnlyValueBytes"/>).</summary>
    public static bool Measures(string name, int valueBytes) =>
        !s_variants.TryGetValue(name, out Type? type)
        || type.GetCustomAttribute<PointVariantAttribute>()!.OnlyValueBytes is 0
        || type.GetCustomAttribute<PointVariantAttribute>()!.OnlyValueBytes == valueBytes;

    /// <summary>Every row in table order: a catalog row, then its raw baseline, then its naive usage.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. StoreCatalog.AvailableNames.SelectMany(VariantsOf)];

    /// <summary>
    /// Whether many threads may call <paramref name="name"/> at once: every catalog row (the contract promises it), and
    /// the variants marked <see cref="PointVariantAttribute.ManyThreads"/>.
    /// </summary>
    public static bool ServesManyThreads(string name) =>
        !s_variants.TryGetValue(name, out Type? type) || type.GetCustomAttribute<PointVariantAttribute>()!.ManyThreads;

    /// <summary>Opens <paramref name="name"/> on an empty <paramref name="directory"/> at Buffered durability.</summary>
    public static IPointTarget Open(string name, string directory)
    {
        if (s_variants.TryGetValue(name, out Type? type))
        {
            return (IPointTarget)Activator.CreateInstance(
                type, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DoNotWrapExceptions, binder: null, [directory], culture: null)!;
        }

        return new StoreTarget(StoreCatalog.Open(name, new StoreOptions { Directory = directory, Durability = Durability.Buffered }));
    }

    private static IEnumerable<string> VariantsOf(string row) =>
        new[] { RowVariantKind.Adapter, RowVariantKind.Raw, RowVariantKind.Naive }
            .Select(kind => RowVariants.Name(row, kind))
            .Where(name => name == row || s_variants.ContainsKey(name));
}
