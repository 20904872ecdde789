namespace KvBench.Core;

/// <summary>What an adapter claims about its store. Probes measure each claim; a test fails when they disagree.</summary>
public sealed record StoreCapabilities
{
    /// <summary>The longest key accepted, in bytes; a longer one gets <see cref="KeyTooLargeException"/>.</summary>
    public required int MaxKeyBytes { get; init; }

    /// <summary>The longest value accepted, in bytes; a longer one gets <see cref="ValueTooLargeException"/>.</summary>
    public required int MaxValueBytes { get; init; }

    /// <summary>Whether the database grows past its initial size without being reopened.</summary>
    public required bool GrowsWithoutRestart { get; init; }

    /// <summary>How several processes may use the store at once.</summary>
    public required MultiProcessLevel MultiProcess { get; init; }

    /// <summary>
    /// Whether <see cref="IKeyValueStore.ScanPrefix"/> seeks an ordered index. When <see langword="false"/> the store
    /// reads everything and filters (results are still in ascending order).
    /// </summary>
    public required bool OrderedPrefixScan { get; init; }

    /// <summary>The durability tiers the store offers.</summary>
    public required DurabilityTiers Durability { get; init; }

    /// <summary>
    /// Whether an acknowledged <see cref="IKeyValueStore.Put"/> survives the process being killed before
    /// <see cref="IKeyValueStore.Flush"/>. <see langword="false"/> for a store that holds writes in its own memory until
    /// a checkpoint: its tier is reached only at <see cref="IKeyValueStore.Flush"/>. Meaningless when
    /// <see cref="Durability"/> is <see cref="DurabilityTiers.None"/>.
    /// </summary>
    public bool WritesSurviveKillBeforeFlush { get; init; } = true;

    /// <summary>
    /// Whether every acknowledged write has reached the device whichever tier was asked for: a store that flushes per
    /// write on its own (LiteDB's shared connection checkpoints as each operation closes its engine). Its Buffered writes
    /// are Synced ones, and the tables say so rather than set them beside Buffered rows unmarked.
    /// </summary>
    public bool SyncsEveryWrite { get; init; }
}
