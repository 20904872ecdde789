using System.Runtime.InteropServices;

using KvBench.Core;
using KvBench.Stores.Baselines;

namespace KvBench.Stores.FileSystem;

/// <summary>The <c>FileSystem</c> row: <see cref="FileSystemStore"/>, one file per key.</summary>
internal sealed class FileSystemRow() : StoreRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = FileSystemStore.MaxKeyBytes,
    MaxValueBytes = Array.MaxLength,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,
    OrderedPrefixScan = false,
    Durability = DurabilityTiers.All,
})
{
    /// <summary>One file per key.</summary>
    internal const string RowName = "FileSystem";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new FileSystemRaw(directory))];

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new FileSystemStore(this, options);

    private protected override bool HoldsStore(string directory) => FileSystemStore.HoldsStore(directory);

    /// <summary>
    /// The row deletes with unlink(2) (which says whether a file was there, atomically) and makes a rename durable by
    /// fsyncing its directory, opened with Linux's O_DIRECTORY value and errno numbers: elsewhere it says so rather than
    /// run with the wrong flags.
    /// </summary>
    private protected override string? CheckAvailability() => OperatingSystem.IsLinux()
        ? null
        : $"the FileSystem row calls unlink(2) and fsyncs directories with Linux's flags and errno values; it is not " +
            $"ported to {RuntimeInformation.OSDescription}.";

    internal override bool FilePerRecord => true;

    private protected override string DescribeEngine() => $"System.IO on {RuntimeInformation.FrameworkDescription}";
}
