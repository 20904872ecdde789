using System.Diagnostics.CodeAnalysis;

using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>SQLite's journal: the write-ahead log, or the rollback journal deleted at each commit.</summary>
public enum SqliteJournal
{
    /// <summary><c>journal_mode=WAL</c>: readers and one writer run at once.</summary>
    Wal,

    /// <summary><c>journal_mode=DELETE</c>, SQLite's default: a writer excludes readers while it commits.</summary>
    Delete,
}

/// <summary>The SQL that writes a key that may already exist.</summary>
public enum SqliteUpsert
{
    /// <summary><c>INSERT ... ON CONFLICT (key) DO UPDATE SET value = excluded.value</c> (SQLite 3.24 and later): updates the row in place.</summary>
    OnConflictDoUpdate,

    /// <summary><c>INSERT OR REPLACE</c>: deletes the old row, then inserts the new one.</summary>
    InsertOrReplace,
}

/// <summary>
/// Settings of the SQLite rows a user may want to change; pass them to <see cref="StoreCatalog.Open"/> in place of
/// <see cref="StoreOptions"/>. Every default is SQLite's own, so a row opened with plain <see cref="StoreOptions"/>
/// measures SQLite as it ships. What makes a row the row it is (its journal, shared cache) is fixed by the row.
/// </summary>
public sealed record SqliteStoreOptions : StoreOptions
{
    /// <summary>Options with every SQLite setting at its default.</summary>
    public SqliteStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and every SQLite setting at its default.</summary>
    [SetsRequiredMembers]
    public SqliteStoreOptions(StoreOptions options)
        : base(options ?? throw new ArgumentNullException(nameof(options)))
    {
    }

    /// <summary>Which upsert statement Put and PutMany run. Default: <see cref="SqliteUpsert.OnConflictDoUpdate"/>.</summary>
    public SqliteUpsert Upsert { get; init; } = SqliteUpsert.OnConflictDoUpdate;

    /// <summary>
    /// <c>PRAGMA cache_size</c> of every connection, in KiB; <see langword="null"/> keeps SQLite's default (2,000 KiB,
    /// per connection, so a pool of N readers holds up to N caches).
    /// </summary>
    public int? CacheSizeKibibytes { get; init; }

    /// <summary><c>PRAGMA mmap_size</c> of every connection, in bytes; <see langword="null"/> keeps SQLite's default (0: reads go through read()).</summary>
    public long? MmapSizeBytes { get; init; }

    /// <summary>
    /// <c>PRAGMA wal_autocheckpoint</c> of every connection, in WAL frames; 0 or less checkpoints never, so the WAL grows
    /// until the store closes. <see langword="null"/> keeps SQLite's default (1,000 frames), whose checkpoint runs inside
    /// the commit that reaches it: setting it tells a stall that checkpoint causes from one it does not.
    /// </summary>
    public int? AutoCheckpointFrames { get; init; }

    /// <summary>The journal; fixed by the row (<c>Sqlite_Rollback</c> is the one that uses <see cref="SqliteJournal.Delete"/>).</summary>
    internal SqliteJournal Journal { get; init; } = SqliteJournal.Wal;

    /// <summary>Whether the row's connections share one page cache (<c>SQLITE_OPEN_SHAREDCACHE</c>); fixed by the row.</summary>
    internal bool SharedCache { get; init; }

    /// <summary>
    /// <c>PRAGMA busy_timeout</c> of the prepared-statement connections; 0 is SQLite's own default, no waiting at all,
    /// which only <see cref="SqliteNaiveConnectionPool"/> uses.
    /// </summary>
    internal int BusyTimeoutMilliseconds { get; init; } = SqliteStoreBase.DefaultBusyTimeoutMilliseconds;

    /// <summary><paramref name="options"/> itself when it carries SQLite settings, else the defaults with its common settings.</summary>
    internal static SqliteStoreOptions From(StoreOptions options) => options as SqliteStoreOptions ?? new SqliteStoreOptions(options);
}
