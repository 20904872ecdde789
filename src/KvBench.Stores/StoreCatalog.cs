using KvBench.Core;
using KvBench.Stores.Faster;
using KvBench.Stores.FileSystem;
using KvBench.Stores.LiteDb;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.RocksDb;
using KvBench.Stores.Sqlite;

namespace KvBench.Stores;

/// <summary>Every row KvBench measures, opened by name. A store joins every benchmark, test and CLI command by being added here.</summary>
public static class StoreCatalog
{
    private static readonly StoreRow[] s_rows =
    [
        Sqlite(StoreNames.SqliteWal, static (name, options) => new SqliteWriterReadersStore(name, new BlobKeySchema(), options)),
        Sqlite(StoreNames.SqliteScalar, static (name, options) => new SqliteWriterReadersStore(name, new ScalarKeySchema(), options)),
        new(StoreNames.Lmdb, LmdbStore.Declared, static (name, options) => new LmdbStore(name, options), LmdbStore.HoldsStore, LmdbStore.CheckAvailability, LmdbStore.Engine, LmdbStore.ClassifyError),
        new(StoreNames.LiteDb, LiteDbRows.SharedDeclared, LiteDbRows.OpenShared, LiteDbRows.HoldsStore, Engine: LiteDbRows.Engine, ClassifyError: LiteDbRows.ClassifyError),
        new(StoreNames.LiteDbDirect, LiteDbRows.DirectDeclared, LiteDbRows.OpenDirect, LiteDbRows.HoldsStore, Engine: LiteDbRows.Engine, ClassifyError: LiteDbRows.ClassifyError),
        new(StoreNames.RocksDb, RocksDbStore.Declared, static (name, options) => new RocksDbStore(name, options), RocksDbStore.HoldsStore, RocksDbStore.CheckAvailability, RocksDbStore.Engine, RocksDbStore.ClassifyError),
        new(StoreNames.Faster, FasterStore.Declared, static (name, options) => new FasterStore(name, options), FasterStore.HoldsStore, Engine: FasterStore.Engine, ClassifyError: FasterStore.ClassifyError),
        new(StoreNames.FileSystem, FileSystemStore.Declared, static (name, options) => new FileSystemStore(name, options), FileSystemStore.HoldsStore, FileSystemStore.CheckAvailability, FileSystemStore.Engine),
        new(StoreNames.Memory, MemoryStore.Declared, static (name, options) => new MemoryStore(name, options), HoldsStore: null, Engine: MemoryStore.Engine),
    ];

    /// <summary>
    /// Other ways of using a store of <see cref="Names"/>, each a row of its own: SQLite's connection strategies, journal
    /// and cache. They honour the same contract (the conformance suite runs them) and fill the strategy tables; the
    /// per-row benchmarks, probes and YCSB compare stores, not usages, and leave them out (each row there costs about a
    /// minute of the default evaluation run).
    /// </summary>
    private static readonly StoreRow[] s_strategyRows =
    [
        Sqlite(StoreNames.SqliteOneConnection, static (name, options) => new SqliteOneConnectionStore(name, new BlobKeySchema(), options)),
        Sqlite(StoreNames.SqlitePerThread, static (name, options) => new SqlitePerThreadStore(name, new BlobKeySchema(), options)),
        Sqlite(StoreNames.SqliteRollback, static (name, options) => new SqliteOneConnectionStore(name, new BlobKeySchema(), SqliteStoreOptions.From(options) with { Journal = SqliteJournal.Delete })),
        Sqlite(StoreNames.SqliteSharedCache, static (name, options) => new SqlitePerThreadStore(name, new BlobKeySchema(), SqliteStoreOptions.From(options) with { SharedCache = true })),
        Sqlite(StoreNames.SqliteAdoNet, static (name, options) => new SqliteAdoNetStore(name, new BlobKeySchema(), options)),
    ];

    /// <summary>Every row the evaluation compares, in table order, including rows whose store cannot be had on this machine.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. s_rows.Select(row => row.Name)];

    /// <summary>The rows of <see cref="Names"/> that can be opened here.</summary>
    public static IReadOnlyList<string> AvailableNames { get; } = [.. s_rows.Where(row => row.UnavailableReason is null).Select(row => row.Name)];

    /// <summary>The strategy rows: other ways of using a store of <see cref="Names"/> (SQLite's connection strategies), opened by name like any row.</summary>
    public static IReadOnlyList<string> StrategyNames { get; } = [.. s_strategyRows.Select(row => row.Name)];

    /// <summary>The strategy rows that can be opened here.</summary>
    public static IReadOnlyList<string> AvailableStrategyNames { get; } = [.. s_strategyRows.Where(row => row.UnavailableReason is null).Select(row => row.Name)];

    /// <summary>Every name <see cref="Open"/> accepts: <see cref="Names"/>, then <see cref="StrategyNames"/>.</summary>
    public static IReadOnlyList<string> AllNames { get; } = [.. Names, .. StrategyNames];

    /// <summary>Why <paramref name="name"/> cannot be opened here, or <see langword="null"/> when it can.</summary>
    public static string? UnavailableReason(string name) => Find(name).UnavailableReason;

    /// <summary>The package and native library versions behind the row, for example "Microsoft.Data.Sqlite 10.0.14, SQLite 3.50.4".</summary>
    public static string Engine(string name)
    {
        StoreRow row = Find(name);
        return row.UnavailableReason is null && row.Engine is { } engine ? engine() : "not available";
    }

    /// <summary>What the row's adapter claims, without opening it.</summary>
    public static StoreCapabilities DeclaredCapabilities(string name) => Find(name).Declared;

    /// <summary>Opens the row <paramref name="name"/> (case-insensitive) with <paramref name="options"/>.</summary>
    /// <exception cref="ArgumentException">No row has that name; the message lists the names.</exception>
    /// <exception cref="StoreUnavailableException">The row's store cannot be had on this machine.</exception>
    /// <exception cref="DurabilityNotOfferedException">The row persists data but cannot reach the tier asked for.</exception>
    /// <exception cref="StoreLockedException">Another process holds the store.</exception>
    /// <exception cref="StoreNotFoundException">A read-only or secondary open found no such store in the directory (nothing is created).</exception>
    /// <exception cref="StoreDamagedException">The store's files are damaged.</exception>
    /// <exception cref="StoreFullException">The disk had no room for what the open writes.</exception>
    /// <exception cref="KeyValueStoreException">The engine failed to open the store for another reason.</exception>
    public static IKeyValueStore Open(string name, StoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        StoreRow row = Find(name);
        if (row.UnavailableReason is { } reason)
        {
            throw new StoreUnavailableException(row.Name, reason);
        }

        // A store that keeps nothing (the Memory floor) opens at any tier: its capabilities already say it offers none.
        DurabilityTiers offered = row.Declared.Durability;
        if (offered != DurabilityTiers.None && !offered.Offers(options.Durability))
        {
            throw new DurabilityNotOfferedException(row.Name, options.Durability, offered);
        }

        // Checked here, before any adapter runs, so an open that was asked only to read never creates a directory or a
        // file, and every row answers a missing store with the same error.
        if (options.Access != StoreAccess.ReadWrite && row.HoldsStore is { } holdsStore && !holdsStore(Path.GetFullPath(options.Directory)))
        {
            throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
        }

        try
        {
            return row.Open(row.Name, options);
        }
        catch (Exception error) when (Translate(row, options, error) is { } typed)
        {
            throw typed;
        }
    }

    /// <summary>An error raised while opening, typed the way the open store types the errors of its calls.</summary>
    private static Exception? Translate(StoreRow row, StoreOptions options, Exception error)
    {
        StoreFailure failure = StoreFailures.Common(error)
            ?? row.ClassifyError?.Invoke(error)
            ?? StoreFailures.DotNetIo(error);
        return StoreFailures.Translate(row.Name, Path.GetFullPath(options.Directory), failure, error);
    }

    private static StoreRow Find(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return s_rows.Concat(s_strategyRows).FirstOrDefault(row => string.Equals(row.Name, name, StringComparison.OrdinalIgnoreCase))
            ?? throw new ArgumentException($"No store is named '{name}'. Known stores: {string.Join(", ", AllNames)}.", nameof(name));
    }

    /// <summary>A SQLite row: every one shares the capabilities, the file and the engine; <paramref name="open"/> picks its strategy.</summary>
    private static StoreRow Sqlite(string name, Func<string, StoreOptions, IKeyValueStore> open) =>
        new(name, SqliteStoreBase.Declared, open, SqliteStoreBase.HoldsStore, Engine: SqliteStoreBase.Engine, ClassifyError: SqliteStoreBase.ClassifyError);

    /// <param name="Name">The row name.</param>
    /// <param name="Declared">The adapter's claims.</param>
    /// <param name="Open">Opens the store, given the row name and options.</param>
    /// <param name="HoldsStore">
    /// Whether a directory (full path) holds a store of this row's kind, looked at before a read-only or secondary open;
    /// <see langword="null"/> for a row that keeps no files (Memory).
    /// </param>
    /// <param name="CheckAvailability">
    /// Says why the store cannot be had here (its package is not served, its native library does not load), or
    /// returns <see langword="null"/>. Asked once, on first use of the catalog.
    /// </param>
    /// <param name="Engine">Names the package and native library versions behind the row; asked only when the row is available.</param>
    /// <param name="ClassifyError">
    /// What the engine's exceptions mean (damaged files, a full disk), the same classifier the adapter's calls use, so an
    /// open fails with the same typed errors as a call; <see langword="null"/> for a row whose errors are .NET's own.
    /// </param>
    private sealed record StoreRow(
        string Name,
        StoreCapabilities Declared,
        Func<string, StoreOptions, IKeyValueStore> Open,
        Func<string, bool>? HoldsStore,
        Func<string?>? CheckAvailability = null,
        Func<string>? Engine = null,
        Func<Exception, StoreFailure>? ClassifyError = null)
    {
        public string? UnavailableReason { get; } = CheckAvailability?.Invoke();
    }
}
