using KvBench.Core;
using KvBench.Stores.Dqlite;
using KvBench.Stores.Etcd;
using KvBench.Stores.Faster;
using KvBench.Stores.FileSystem;
using KvBench.Stores.LiteDb;
using KvBench.Stores.Lmdb;
using KvBench.Stores.MariaDb;
using KvBench.Stores.Memory;
using KvBench.Stores.PostgreSql;
using KvBench.Stores.Redis;
using KvBench.Stores.RocksDb;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;

namespace KvBench.Stores;

/// <summary>
/// Every row KvBench measures, as its definition (<see cref="StoreRow"/>), opened by name. A row joins every benchmark,
/// test and CLI command by its definition being listed here.
/// </summary>
public static class StoreCatalog
{
    private static readonly StoreRow[] s_rows =
    [
        SqliteRow.Wal,
        SqliteRow.Scalar,
        new LmdbRow(),
        LiteDbRow.Shared,
        LiteDbRow.Direct,
        new RocksDbRow(),
        new FasterRow(),
        new FileSystemRow(),
        new MemoryRow(),
    ];

    /// <summary>
    /// Other ways of using a store of <see cref="Names"/>, each a row of its own: SQLite's connection strategies, journal
    /// and cache. They honour the same contract (the conformance suite runs them) and fill the strategy tables; the
    /// per-row benchmarks, probes and YCSB compare stores, not usages, and leave them out (each row there costs about a
    /// minute of the default evaluation run).
    /// </summary>
    private static readonly StoreRow[] s_strategyRows =
    [
        SqliteRow.OneConnection,
        SqliteRow.PerThread,
        SqliteRow.Rollback,
        SqliteRow.SharedCache,
        SqliteRow.AdoNet,
    ];

    /// <summary>
    /// The rows whose store is a server KvBench runs on loopback (or a user's own, <see cref="ServerStoreOptions.Endpoint"/>).
    /// Listed apart from <see cref="Names"/>: the default evaluation compares embedded stores and keeps to its time budget,
    /// and a server is installed and started only for a suite that asks for these rows.
    /// </summary>
    private static readonly ServerRow[] s_serverRows =
    [
        new RedisRow(),
        new GarnetRow(),
        new PostgreSqlRow(),
        new MariaDbRow(),
        new EtcdRow(),
        new DqliteRow(),
    ];

    /// <summary>Rows defined in teams' own assemblies, loaded by <see cref="RowAssemblies"/>; replaced whole, never changed.</summary>
    private static StoreRow[] s_loadedRows = [];

    private static readonly string[] s_builtInNames = [.. s_rows.Concat(s_strategyRows).Concat(s_serverRows).Select(row => row.Name)];

    /// <summary>The in-process floor (<see cref="StoreRow.IsFloor"/>): what KvBench's runner costs, never a candidate.</summary>
    public static StoreRow Floor { get; } = s_rows.Single(row => row.IsFloor);

    /// <summary>
    /// The embedded rows the server tables set beside the servers: SQLite and LMDB, the embedded stores a desktop team
    /// weighs against a server, and the engine a server row stores in (<see cref="ServerRow.InProcessLineage"/>).
    /// </summary>
    public static IReadOnlyList<string> BesideServers { get; } =
        [SqliteRow.WalName, LmdbRow.RowName, .. s_serverRows.Select(row => row.InProcessLineage).OfType<string>()];

    /// <summary>Every row the evaluation compares, in table order, including rows whose store cannot be had on this machine.</summary>
    public static IReadOnlyList<StoreRow> Rows => s_rows;

    /// <summary>The strategy rows: other ways of using a store of <see cref="Rows"/> (SQLite's connection strategies).</summary>
    public static IReadOnlyList<StoreRow> StrategyRows => s_strategyRows;

    /// <summary>The names of <see cref="Rows"/>, in table order.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. s_rows.Select(row => row.Name)];

    /// <summary>The rows of <see cref="Names"/> that can be opened here.</summary>
    public static IReadOnlyList<string> AvailableNames { get; } = [.. s_rows.Where(row => row.IsAvailable).Select(row => row.Name)];

    /// <summary>The strategy rows: other ways of using a store of <see cref="Names"/> (SQLite's connection strategies), opened by name like any row.</summary>
    public static IReadOnlyList<string> StrategyNames { get; } = [.. s_strategyRows.Select(row => row.Name)];

    /// <summary>The strategy rows that can be opened here.</summary>
    public static IReadOnlyList<string> AvailableStrategyNames { get; } = [.. s_strategyRows.Where(row => row.IsAvailable).Select(row => row.Name)];

    /// <summary>
    /// Row <paramref name="name"/>, then the strategy rows that can be opened here and are other ways of using it
    /// (<see cref="StoreRow.StrategyOf"/>), in catalog order: the lines of its strategy table.
    /// </summary>
    /// <exception cref="ArgumentException">No row has that name.</exception>
    public static IReadOnlyList<string> WithStrategies(string name)
    {
        string row = Row(name).Name;
        return [row, .. s_strategyRows.Where(strategy => strategy.StrategyOf == row && strategy.IsAvailable).Select(strategy => strategy.Name)];
    }

    /// <summary>The server rows: stores that live in a server process (see <see cref="ServerRow"/>), not in the caller's.</summary>
    public static IReadOnlyList<ServerRow> ServerRows => s_serverRows;

    /// <summary>The names of <see cref="ServerRows"/>.</summary>
    public static IReadOnlyList<string> ServerNames { get; } = [.. s_serverRows.Select(row => row.Name)];

    /// <summary>The server row named <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentException">No row is named so, or the row it names is no server row.</exception>
    public static ServerRow ServerRowNamed(string name) =>
        Row(name) as ServerRow
            ?? throw new ArgumentException(
                $"{name} is not a server row; the server rows are {string.Join(", ", ServerNames)}.",
                nameof(name));

    /// <summary>
    /// The server rows whose server is installed here or can be (or that point at a user's server). Asked when read, not
    /// when the catalog loads: the answer asks dpkg, which a command that opens no server row should not wait for.
    /// </summary>
    public static IReadOnlyList<string> AvailableServerNames => [.. s_serverRows.Where(row => row.IsAvailable).Select(row => row.Name)];

    /// <summary>
    /// The rows loaded from teams' own assemblies in this process (<see cref="RowAssemblies"/>), in the order they were
    /// loaded. They open by name like any row, and a profile names them as candidates; the default evaluation's tables
    /// keep to <see cref="Rows"/>.
    /// </summary>
    public static IReadOnlyList<StoreRow> LoadedRows => Volatile.Read(ref s_loadedRows);

    /// <summary>
    /// Every name <see cref="Open"/> accepts: <see cref="Names"/>, <see cref="StrategyNames"/>, the names of
    /// <see cref="LoadedRows"/>, then <see cref="ServerNames"/>.
    /// </summary>
    public static IReadOnlyList<string> AllNames =>
        LoadedRows is { Count: > 0 } loaded ? [.. Names, .. StrategyNames, .. loaded.Select(row => row.Name), .. ServerNames] : s_builtInNames;

    /// <summary>The definition of the row <paramref name="name"/> (case-insensitive).</summary>
    /// <exception cref="ArgumentException">No row has that name; the message lists the names.</exception>
    public static StoreRow Row(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return Find(name) ?? throw new ArgumentException($"No store is named '{name}'. Known stores: {string.Join(", ", AllNames)}.", nameof(name));
    }

    /// <summary>The row named <paramref name="name"/> (case-insensitive), or <see langword="null"/>.</summary>
    internal static StoreRow? Find(string name) =>
        s_rows.Concat(s_strategyRows).Concat(LoadedRows).Concat(s_serverRows)
            .FirstOrDefault(row => string.Equals(row.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>Adds rows <see cref="RowAssemblies"/> loaded, whose names it has checked against every row's; called under its lock.</summary>
    internal static void AddLoaded(IReadOnlyList<StoreRow> rows) => Volatile.Write(ref s_loadedRows, [.. s_loadedRows, .. rows]);

    /// <summary>Why <paramref name="name"/> cannot be opened here, or <see langword="null"/> when it can.</summary>
    public static string? UnavailableReason(string name) => Row(name).UnavailableReason;

    /// <summary>The package and native library versions behind the row, for example "Microsoft.Data.Sqlite 10.0.14, SQLite 3.50.4".</summary>
    public static string Engine(string name) => Row(name).Engine;

    /// <summary>What the row's adapter claims, without opening it.</summary>
    public static StoreCapabilities DeclaredCapabilities(string name) => Row(name).Declared;

    /// <summary>Opens the row <paramref name="name"/> (case-insensitive) with <paramref name="options"/>; see <see cref="StoreRow.Open"/>.</summary>
    /// <exception cref="ArgumentException">No row has that name; the message lists the names.</exception>
    /// <exception cref="KeyValueStoreException">The row cannot be opened (see <see cref="StoreRow.Open"/> for each typed error).</exception>
    public static IKeyValueStore Open(string name, StoreOptions options) => Row(name).Open(options);

    /// <summary>
    /// Starts what the rows <paramref name="names"/> need running (each once, in order) and returns once all are ready,
    /// with what they publish set in this process's environment (<see cref="RowHost.Published"/>): what a suite does
    /// before its first case. Dispose the result after the suite's last case, also when it fails; that takes the
    /// variables back and stops every host. A start that fails stops those already started before it throws.
    /// </summary>
    /// <exception cref="StoreUnavailableException">What a row needs did not start or did not become ready in time.</exception>
    public static async Task<RowHostGroup> StartHostsAsync(IEnumerable<string> names, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(names);
        var hosts = new RowHostGroup([.. names.Select(Row).Distinct().Select(row => row.CreateHost())]);
        await hosts.StartAsync(cancellationToken).ConfigureAwait(false);
        return hosts;
    }
}
