using KvBench.Core;
using KvBench.Stores.Baselines;

using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>The <c>LMDB</c> row: <see cref="LmdbStore"/> over the LMDB library <see cref="LmdbNativeLibrary"/> chose.</summary>
internal sealed class LmdbRow() : StoreRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = LmdbStore.MaxKeyBytes,
    MaxValueBytes = LmdbStore.MaxValueBytes,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
})
{
    /// <summary>LMDB through Debian's liblmdb0: one environment, its main database, a map that grows by itself.</summary>
    internal const string RowName = "LMDB";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
    [
        new(RowVariantKind.Raw, static directory => new LmdbRaw(directory)),
        new(RowVariantKind.Naive, static directory => new LmdbNaive(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes },
    ];

    /// <summary>
    /// LMDB maps its file and follows page pointers without checks: a damaged pointer (a flipped bit in data.mdb, for
    /// one) reads past the map, which is a SIGBUS.
    /// </summary>
    internal override bool MayCrashOnDamagedFiles => true;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new LmdbStore(this, options);

    /// <summary>LMDB preallocates its map: the start is the map's size at open (<see cref="LmdbStoreOptions.InitialMapBytes"/>).</summary>
    private protected override StoreOptions SizedOptions(StoreOptions options, long initialBytes) =>
        LmdbStoreOptions.From(options) with { InitialMapBytes = initialBytes };

    private protected override bool HoldsStore(string directory) => LmdbStore.HoldsStore(directory);

    /// <summary>Says why the row cannot be opened here (no LMDB library loads), or <see langword="null"/>.</summary>
    private protected override string? CheckAvailability() => LmdbNativeLibrary.UnavailableReason;

    /// <summary>Which LMDB the row runs: the package's version, the library it runs over and why.</summary>
    private protected override string DescribeEngine() => LmdbNativeLibrary.Description;

    /// <summary>
    /// LMDB's codes for a damaged file, and the errno of a full disk that a commit's write returns. A
    /// <see cref="LightningException"/> that escaped conversion to <see cref="LmdbException"/> is read by the same code.
    /// </summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => (error switch
    {
        LmdbException lmdb => lmdb.Code,
        LightningException lightning => LmdbException.CodeOf(lightning),
        _ => (MDBResultCode?)null,
    }) switch
    {
        MDBResultCode.Invalid or MDBResultCode.VersionMismatch or MDBResultCode.Corrupted or MDBResultCode.PageNotFound => StoreFailure.Damaged,
        LmdbException.NoSpaceErrno => StoreFailure.Full,
        not null => StoreFailure.Failed,
        null => error is IOException ? StoreFailure.Failed : StoreFailure.NotEngine,
    };
}
