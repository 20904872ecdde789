namespace KvBench.Stores.Baselines;

/// <summary>
/// A target a row's point-operation benchmarks measure beside its adapter: the same operations written against the
/// store's package directly (<see cref="RowVariantKind.Raw"/>), or a common naive usage of it
/// (<see cref="RowVariantKind.Naive"/>). A row lists its own (<see cref="StoreRow.Baselines"/>) and creates them, so
/// adding one is a file in the row's folder and a line in its definition.
/// </summary>
/// <param name="Kind">Raw or naive.</param>
/// <param name="Open">Opens the target on an empty data directory, at the tier its row is measured at.</param>
public sealed record PointBaseline(RowVariantKind Kind, Func<string, IPointTarget> Open)
{
    /// <summary>
    /// The value size of the published point-operation table (9-byte keys, 128-byte values) the naive usages answer:
    /// a question of usage rather than of size, measured at that size alone.
    /// </summary>
    public const int PublishedTableValueBytes = 128;

    /// <summary>
    /// Whether many threads may call the target at once, each through <see cref="IPointTarget.ForAnotherThread"/>; a
    /// target that keeps one connection, transaction or scratch file serves one thread only. Default: one thread.
    /// </summary>
    public bool ManyThreads { get; init; }

    /// <summary>
    /// The one value size the target is measured at (0, the default: every size the benchmarks measure); its ratio
    /// cells at other sizes read "not measured". For the naive usages, and for a target whose every case costs the run
    /// seconds: the default run's time budget holds only so many cases on two cores.
    /// </summary>
    public int OnlyValueBytes { get; init; }
}
