using KvBench.Core;
using KvBench.Stores.Baselines;

using LiteDB;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// LiteDB's two rows, <see cref="Shared"/> (shared connection) and <see cref="Direct"/> (direct connection): what each
/// claims, how each opens, and what LiteDB's errors mean. Both use <see cref="LiteDbStore"/>; only the connection mode
/// differs.
/// </summary>
internal sealed class LiteDbRow : StoreRow
{
    /// <summary>LiteDB in direct connection mode: one process at a time.</summary>
    internal const string DirectName = "LiteDB_Direct";

    /// <summary>LiteDB, one collection, shared connection mode (several processes).</summary>
    internal const string SharedName = "LiteDB";

    /// <summary>The data file; LiteDB keeps its write-ahead log beside it as <c>kv-log.db</c>.</summary>
    internal const string DataFileName = "kv.db";

    /// <summary>
    /// What LiteDB writes on its own after acknowledging: a checkpoint copies up to 1,000 log pages of 8 KiB (its
    /// automatic checkpoint size) into the data file, and the log may hold a transaction that large besides.
    /// </summary>
    internal const long ReservedFreeBytes = 32L << 20;

    /// <summary>
    /// LiteDB 5.0.x limits an index key to 1,023 bytes (MAX_INDEX_KEY_LENGTH), counting a type byte and a length byte
    /// (IndexNode.GetKeyLength), so a binary <c>_id</c> holds 1,021 bytes.
    /// </summary>
    private const int MaxKeyBytes = 1021;

    /// <summary>
    /// LiteDB 5.0.x refuses a document over 16,683,050 bytes (MAX_DOCUMENT_SIZE, 2,047 data pages of 8,150 bytes). The
    /// row's document is <c>{ _id: key, v: value }</c> in BSON: 4-byte length, <c>_id</c> element (type, "_id\0",
    /// 4-byte length, subtype), <c>v</c> element (type, "v\0", 4-byte length, subtype), closing 0: 23 bytes besides
    /// the key and value. With the longest key, the value keeps the rest.
    /// </summary>
    private const int MaxValueBytes = 16_683_050 - 23 - MaxKeyBytes;

    private readonly ConnectionType _connection;

    private LiteDbRow(string name, StoreCapabilities declared, ConnectionType connection, IReadOnlyList<PointBaseline> baselines)
        : base(name, declared)
    {
        _connection = connection;
        Baselines = baselines;
    }

    /// <summary>
    /// The shared-connection row: several processes read and write the file, each operation building an engine under a
    /// named mutex. Closing that engine checkpoints, which fsyncs the data file: every write is Synced before it is
    /// acknowledged, whichever tier was asked for (see <see cref="LiteDbStore"/>).
    /// </summary>
    /// <remarks>
    /// Its naive usage (a database opened around every operation, as LiteDB's "Getting Started" shows) builds an engine
    /// per operation, as this row does: it stands beside this row alone.
    /// </remarks>
    internal static LiteDbRow Shared { get; } = new(
        SharedName,
        Capabilities(MultiProcessLevel.Shared) with { SyncsEveryWrite = true },
        ConnectionType.Shared,
        [
            new(RowVariantKind.Raw, static directory => new LiteDbRaw(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes },
            new(RowVariantKind.Naive, static directory => new LiteDbNaive(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes },
        ]);

    /// <summary>
    /// The direct-connection row. LiteDB alone does not stop a second process on Linux (it opens the file and writes,
    /// and the first keeps a stale view), so this row holds <see cref="StoreDirectoryLock"/> and is one process at a time.
    /// </summary>
    internal static LiteDbRow Direct { get; } = new(
        DirectName,
        Capabilities(MultiProcessLevel.Exclusive),
        ConnectionType.Direct,
        [new(RowVariantKind.Raw, static directory => new LiteDbDirectRaw(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes }]);

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; }

    /// <summary>The shared connection builds and disposes an engine around every operation, under LiteDB's named mutex.</summary>
    internal override bool BuildsEnginePerOperation => _connection == ConnectionType.Shared;

    /// <summary>
    /// The connection string both rows and the raw baselines use: the file, the mode, read-only or not; everything else
    /// LiteDB's default (no collation: keys are binaries, which no collation touches).
    /// </summary>
    internal static ConnectionString ConnectionString(string directory, ConnectionType connection, bool readOnly) => new()
    {
        Filename = Path.Combine(directory, DataFileName),
        Connection = connection,
        ReadOnly = readOnly,
    };

    /// <summary>
    /// What LiteDB's exceptions mean. <see cref="LiteException"/> names a file that is not a LiteDB database
    /// (INVALID_DATABASE) and a page or structure that fails its checks (INVALID_DATAFILE_STATE, INVALID_FREE_SPACE_PAGE,
    /// INVALID_FORMAT); any other is a failure of the store. The plain .NET exceptions a damaged page raises are typed
    /// before they get here, by <see cref="IsDamage"/>.
    /// </summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        LiteException
        {
            ErrorCode: LiteException.INVALID_DATABASE or LiteException.INVALID_DATAFILE_STATE or LiteException.INVALID_FREE_SPACE_PAGE
                or LiteException.INVALID_FORMAT,
        } => StoreFailure.Damaged,
        LiteException or IOException or UnauthorizedAccessException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };

    /// <summary>
    /// Whether an exception LiteDB raised while opening or serving a valid call means its file is damaged: LiteDB reads
    /// page headers, lengths and BSON type bytes without checksums, so flipped bits surface as whatever its readers trip
    /// over. Flipped bits in the data file surface as NotSupportedException ("BSON type not supported") and
    /// NotImplementedException; index, cast and length errors are the same trip in other places. The adapter checks
    /// every key and value before LiteDB sees it, so none of these comes from the caller's input. The contract passes
    /// such exceptions on unchanged as caller errors, hence this check ahead of it.
    /// </summary>
    internal static bool IsDamage(Exception error) => error is NotSupportedException or NotImplementedException
        or InvalidCastException or IndexOutOfRangeException or ArgumentException or OverflowException
        or KeyNotFoundException or NullReferenceException or EndOfStreamException or InvalidOperationException;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new LiteDbStore(this, _connection, options);

    /// <summary>Whether <paramref name="directory"/> holds a LiteDB store: its data file.</summary>
    private protected override bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, DataFileName));

    private protected override string DescribeEngine() => $"LiteDB {PackageVersion.Of("LiteDB")}";

    private static StoreCapabilities Capabilities(MultiProcessLevel multiProcess) => new()
    {
        MaxKeyBytes = MaxKeyBytes,
        MaxValueBytes = MaxValueBytes,
        GrowsWithoutRestart = true,
        MultiProcess = multiProcess,
        // _id is a skip-list index and binary keys compare byte by byte, so a prefix is a range seek.
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };
}
