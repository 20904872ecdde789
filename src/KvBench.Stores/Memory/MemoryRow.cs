using System.Runtime.InteropServices;

using KvBench.Core;
using KvBench.Stores.Baselines;

namespace KvBench.Stores.Memory;

/// <summary>The <c>Memory</c> row: <see cref="MemoryStore"/>, the floor, not a candidate.</summary>
internal sealed class MemoryRow() : StoreRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = Array.MaxLength,
    MaxValueBytes = Array.MaxLength,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.InProcess,
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.None,
})
{
    /// <summary>The in-process floor; not a candidate.</summary>
    internal const string RowName = "Memory";

    /// <inheritdoc/>
    public override bool IsFloor => true;

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new MemoryRaw(directory)) { ManyThreads = true }];

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new MemoryStore(this, options);

    /// <summary>The row keeps no files, so any directory holds its (empty) store: a read-only open always opens.</summary>
    private protected override bool HoldsStore(string directory) => true;

    private protected override string DescribeEngine() =>
        $"Dictionary<byte[], byte[]> and sorted blocks of its keys on {RuntimeInformation.FrameworkDescription}";
}
