using System.Runtime.InteropServices;

using KvBench.Core;
using KvBench.Stores.Baselines;

using RocksDbSharp;

namespace KvBench.Stores.RocksDb;

/// <summary>The <c>RocksDB</c> row: <see cref="RocksDbStore"/> over the native library the <c>RocksDB</c> package carries.</summary>
internal sealed class RocksDbRow() : StoreRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = RocksDbStore.MaxKeyBytes,
    // RocksDB recommends values up to 3 GB (a write batch takes 4 GiB - 1); Get returns a .NET array, which
    // holds at most Array.MaxLength bytes, so that is the binding limit.
    MaxValueBytes = Array.MaxLength,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.OneWriter,
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
})
{
    /// <summary>RocksDB through the RocksDB package (RocksDbSharp, its bundled RocksDB), default column family.</summary>
    internal const string RowName = "RocksDB";

    /// <summary>The package's id on NuGet, whose version names the RocksDB it bundles.</summary>
    private const string PackageId = "RocksDB";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
    [
        new(RowVariantKind.Raw, static directory => new RocksDbRaw(directory)) { ManyThreads = true },
        new(RowVariantKind.Naive, static directory => new RocksDbNaive(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes },
    ];

    /// <summary>
    /// RocksDB fails every later write of the open that met a full disk with the same "No space left on device" (even
    /// seconds after space was freed) and a WAL sync with "Writer has previous error"; its C API has no resume
    /// call, so writes resume after a reopen.
    /// </summary>
    internal override bool KeepsDiskFullErrorUntilReopen => true;

    /// <summary>The RocksDB release a package version names: its first three numbers ("11.12.0" of "11.12.0.7641").</summary>
    internal static string BundledRelease(string packageVersion) =>
        packageVersion.Split('.') is { Length: 4 } parts ? string.Join('.', parts[..3]) : packageVersion;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new RocksDbStore(this, options);

    private protected override bool HoldsStore(string directory) => RocksDbStore.HoldsStore(directory);

    /// <summary>Why the RocksDB row cannot be had on this machine, or <see langword="null"/> when the package's native library loads.</summary>
    private protected override string? CheckAvailability()
    {
        try
        {
            // The package finds and loads its librocksdb (runtimes/<rid>/native beside the application) in Native's
            // static constructor, and says there what it searched when nothing loads.
            _ = Native.Instance;
            return null;
        }
        catch (TypeInitializationException error)
        {
            return $"the {PackageId} package's native library (for {RuntimeInformation.RuntimeIdentifier}) does not " +
                $"load here: {error.InnerException?.Message ?? error.Message}";
        }
    }

    /// <summary>
    /// The package version, the RocksDB release it bundles and the library file it loaded, for example
    /// "RocksDB 11.12.0.7641 (RocksDB 11.12.0, bundled runtimes/linux-x64/native/librocksdb.so)".
    /// </summary>
    /// <remarks>
    /// RocksDB's C API has no version call (the release is only in C++ functions and in the OPTIONS file an open
    /// writes), so the release comes from the package version, whose first three numbers are the RocksDB release it
    /// was built from (the package's README); RocksDbStoreTests checks it against the OPTIONS file the library writes.
    /// </remarks>
    private protected override string DescribeEngine()
    {
        string package = PackageVersion.Of(PackageId);
        string? loaded = NativeImport.Auto.LoadedPath;
        string? relative = loaded is null ? null : Path.GetRelativePath(AppContext.BaseDirectory, loaded);
        string library = relative switch
        {
            null => "no library loaded",

            // The package looks under the working directory and the application directory, then asks the system
            // loader for librocksdb by name; anything not under the application directory is named in full.
            _ when Path.IsPathRooted(relative) || relative.StartsWith("..", StringComparison.Ordinal) => $"loaded from {loaded}",
            _ => $"bundled {relative.Replace('\\', '/')}",
        };
        return $"{PackageId} {package} (RocksDB {BundledRelease(package)}, {library})";
    }

    /// <summary>
    /// What a RocksDB error means, from its status text (the package's <see cref="RocksDbException"/> carries only the
    /// message): "Corruption: ..." for a checksum or format failure, "IO error: No space left on device ..." for a
    /// full disk. A held LOCK ("IO error: While lock file: ... Resource temporarily unavailable") is met only at open,
    /// which throws <see cref="StoreLockedException"/> itself.
    /// </summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        RocksDbSharpException or KeyValueStoreException when error.Message.Contains("Corruption:", StringComparison.Ordinal) => StoreFailure.Damaged,
        RocksDbSharpException or KeyValueStoreException when StoreFailures.IsNoSpace(error) => StoreFailure.Full,
        RocksDbSharpException or KeyValueStoreException or IOException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };
}
