namespace KvBench.Stores.Baselines;

/// <summary>What a benchmark row drives: a store's adapter, the store's package written against directly, or a common naive usage.</summary>
public enum RowVariantKind
{
    /// <summary>The KvBench adapter, through <see cref="Core.IKeyValueStore"/>: the catalog row itself.</summary>
    Adapter,

    /// <summary>The same operations written directly against the store's own package, the simplest efficient way.</summary>
    Raw,

    /// <summary>A common but slow way of using the store, beside the tuned adapter.</summary>
    Naive,
}

/// <summary>
/// How benchmark rows other than the adapters are named, and what each row's ratio divides by:
/// <c>&lt;Row&gt;_raw</c> is the raw-driver baseline of <c>&lt;Row&gt;</c>, <c>&lt;Row&gt;_naive</c> a naive usage of it.
/// </summary>
public static class RowVariants
{
    /// <summary>The suffix of a raw-driver baseline.</summary>
    public const string RawSuffix = "_raw";

    /// <summary>The suffix of a naive-usage row.</summary>
    public const string NaiveSuffix = "_naive";

    /// <summary>The name of <paramref name="row"/> in the variant <paramref name="kind"/>.</summary>
    public static string Name(string row, RowVariantKind kind) => kind switch
    {
        RowVariantKind.Adapter => row,
        RowVariantKind.Raw => row + RawSuffix,
        RowVariantKind.Naive => row + NaiveSuffix,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown variant."),
    };

    /// <summary>Splits a benchmark row name into the catalog row and the variant.</summary>
    public static (string Row, RowVariantKind Kind) Parse(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return name.EndsWith(RawSuffix, StringComparison.Ordinal) ? (name[..^RawSuffix.Length], RowVariantKind.Raw)
            : name.EndsWith(NaiveSuffix, StringComparison.Ordinal) ? (name[..^NaiveSuffix.Length], RowVariantKind.Naive)
            : (name, RowVariantKind.Adapter);
    }

    /// <summary>
    /// The row a ratio for <paramref name="name"/> divides by: an adapter's raw baseline (the cost of the abstraction),
    /// or a naive row's tuned adapter (the cost of the usage). <see langword="null"/> for a raw baseline.
    /// </summary>
    public static string? ReferenceOf(string name)
    {
        (string row, RowVariantKind kind) = Parse(name);
        return kind switch
        {
            RowVariantKind.Adapter => Name(row, RowVariantKind.Raw),
            RowVariantKind.Naive => row,
            _ => null,
        };
    }
}
