using KvBench.Core;
using KvBench.Stores.Baselines;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// The SQLite rows: every one shares the capabilities, the file, the engine and what SQLite's errors mean; each picks
/// its table layout and connection strategy (one adapter file per strategy).
/// </summary>
public sealed class SqliteRow : StoreRow
{
    /// <summary>SQLite, one WITHOUT ROWID blob table, WAL journal, one writer connection and a read connection per thread.</summary>
    public const string WalName = "Sqlite_WAL";

    /// <summary>SQLite with typed columns: an INTEGER category from the first key byte and a BLOB id.</summary>
    public const string ScalarName = "Sqlite_Scalar";

    /// <summary>
    /// SQLite as <see cref="WalName"/>, every thread sharing one connection behind a lock (what Sqlite_WAL was before it
    /// took a read connection per thread).
    /// </summary>
    public const string OneConnectionName = "Sqlite_OneConnection";

    /// <summary>SQLite as <see cref="WalName"/>, one connection per thread.</summary>
    public const string PerThreadName = "Sqlite_PerThread";

    /// <summary>SQLite with the rollback journal (DELETE), one connection behind a lock.</summary>
    public const string RollbackName = "Sqlite_Rollback";

    /// <summary>SQLite in WAL, one connection per thread, all sharing one page cache.</summary>
    public const string SharedCacheName = "Sqlite_SharedCache";

    /// <summary>SQLite in WAL through Microsoft.Data.Sqlite as most .NET code uses it: a pooled connection opened per operation.</summary>
    public const string AdoNetName = "Sqlite_AdoNet";

    private static readonly StoreCapabilities s_declared = new()
    {
        // SQLITE_MAX_LENGTH (1,000,000,000) bounds a whole row; half each keeps a row with both at their limits legal.
        MaxKeyBytes = 500_000_000,
        MaxValueBytes = 500_000_000,
        GrowsWithoutRestart = true,
        MultiProcess = MultiProcessLevel.Shared,
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };

    private readonly Func<StoreRow, StoreOptions, IKeyValueStore> _open;

    private SqliteRow(
        string name,
        Func<StoreRow, StoreOptions, IKeyValueStore> open,
        IReadOnlyList<PointBaseline>? baselines = null,
        bool readsOnConnectionPerThreadInWal = false,
        string? strategyOf = null)
        : base(name, s_declared)
    {
        _open = open;
        Baselines = baselines ?? [];
        ReadsOnConnectionPerThreadInWal = readsOnConnectionPerThreadInWal;
        StrategyOf = strategyOf;
    }

    /// <summary><c>Sqlite_WAL</c>: a blob table, one writer connection and a read connection per thread.</summary>
    internal static SqliteRow Wal { get; } = new(
        WalName,
        static (row, options) => new SqliteWriterReadersStore(row, new BlobKeySchema(), options),
        baselines:
        [
            new(RowVariantKind.Raw, static directory => new SqliteWalRaw(directory)),
            new(RowVariantKind.Naive, static directory => new SqliteWalNaive(directory)) { OnlyValueBytes = PointBaseline.PublishedTableValueBytes },
        ],
        readsOnConnectionPerThreadInWal: true);

    /// <summary><c>Sqlite_Scalar</c>: typed key columns, the same writer and readers.</summary>
    internal static SqliteRow Scalar { get; } = new(
        ScalarName,
        static (row, options) => new SqliteWriterReadersStore(row, new ScalarKeySchema(), options),
        baselines: [new(RowVariantKind.Raw, static directory => new SqliteScalarRaw(directory))],
        readsOnConnectionPerThreadInWal: true);

    /// <summary><c>Sqlite_OneConnection</c>: every thread shares one connection behind a lock.</summary>
    internal static SqliteRow OneConnection { get; } = new(
        OneConnectionName, static (row, options) => new SqliteOneConnectionStore(row, new BlobKeySchema(), options), strategyOf: WalName);

    /// <summary><c>Sqlite_PerThread</c>: one connection per thread.</summary>
    internal static SqliteRow PerThread { get; } = new(
        PerThreadName,
        static (row, options) => new SqlitePerThreadStore(row, new BlobKeySchema(), options),
        readsOnConnectionPerThreadInWal: true,
        strategyOf: WalName);

    /// <summary><c>Sqlite_Rollback</c>: the rollback journal, one connection behind a lock.</summary>
    internal static SqliteRow Rollback { get; } = new(
        RollbackName,
        static (row, options) => new SqliteOneConnectionStore(
            row, new BlobKeySchema(), SqliteStoreOptions.From(options) with { Journal = SqliteJournal.Delete }),
        strategyOf: WalName);

    /// <summary><c>Sqlite_SharedCache</c>: one connection per thread, all sharing one page cache.</summary>
    internal static SqliteRow SharedCache { get; } = new(
        SharedCacheName,
        static (row, options) => new SqlitePerThreadStore(row, new BlobKeySchema(), SqliteStoreOptions.From(options) with { SharedCache = true }),
        strategyOf: WalName);

    /// <summary><c>Sqlite_AdoNet</c>: a pooled connection opened per operation, as most .NET code uses SQLite.</summary>
    internal static SqliteRow AdoNet { get; } = new(
        AdoNetName, static (row, options) => new SqliteAdoNetStore(row, new BlobKeySchema(), options), strategyOf: WalName);

    /// <summary>
    /// Whether the row runs in WAL with a connection of its own for every reading thread (no shared page cache), so its
    /// reads share SQLite's per-process read-mark lock on the -shm file: a lone reader takes and drops that lock on every
    /// read, and several readers mostly find it held. The workload tables explain a lone reader's extra system calls
    /// for such a row.
    /// </summary>
    public bool ReadsOnConnectionPerThreadInWal { get; }

    /// <inheritdoc/>
    public override string? StrategyOf { get; }

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; }

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => _open(this, options);

    private protected override bool HoldsStore(string directory) => SqliteStoreBase.HoldsStore(directory);

    private protected override string DescribeEngine()
    {
        // Asked before any store is opened too (`kvbench --version`): SQLitePCLRaw has no native library until the
        // bundle is initialised, which Microsoft.Data.Sqlite otherwise does on its first connection. Init is idempotent.
        Batteries_V2.Init();
        return $"Microsoft.Data.Sqlite {PackageVersion.Of("Microsoft.Data.Sqlite")}, SQLitePCLRaw {PackageVersion.Of("SQLitePCLRaw.core")}, "
            + $"SQLite {raw.sqlite3_libversion().utf8_to_string()}";
    }

    /// <summary>SQLite's primary result codes for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) and a full disk (SQLITE_FULL).</summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        SqliteException sqlite => (sqlite.SqliteErrorCode & 0xFF) switch
        {
            raw.SQLITE_CORRUPT or raw.SQLITE_NOTADB => StoreFailure.Damaged,
            raw.SQLITE_FULL => StoreFailure.Full,
            _ => StoreFailure.Failed,
        },
        IOException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };
}
