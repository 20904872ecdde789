using System.Buffers;

using KvBench.Core;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// What every SQLite adapter shares, whatever its connection strategy: the file, the pragmas, and every store operation
/// written once against <see cref="SqliteOperations"/> (the capabilities and errors are <see cref="SqliteRow"/>'s). A
/// strategy (one file each) says only which connection a call gets (<see cref="Acquire"/>) and how it gives it back
/// (<see cref="Release"/>).
/// </summary>
/// <remarks>
/// Other processes are waited for by <c>busy_timeout</c>, SQLite's own fine-grained wait, not Microsoft.Data.Sqlite's
/// 150 ms sleep-and-retry (the <c>Sqlite_AdoNet</c> row keeps the library's, as most .NET code does).
/// </remarks>
internal abstract class SqliteStoreBase : StoreAdapter
{
    internal const string FileName = "store.db";

    /// <summary>How long a statement waits for another connection's write lock before SQLITE_BUSY reaches the caller.</summary>
    internal const int DefaultBusyTimeoutMilliseconds = 10_000;

    protected SqliteStoreBase(StoreRow row, SqliteSchema schema, StoreOptions options)
        : base(row, options)
    {
        Schema = schema;
        Options = SqliteStoreOptions.From(options);
        Directory.CreateDirectory(options.Directory);
        DatabasePath = Path.Combine(options.Directory, FileName);
    }

    protected SqliteSchema Schema { get; }

    protected SqliteStoreOptions Options { get; }

    protected string DatabasePath { get; }

    /// <summary>Whether this store may write (and so sets the journal and creates the table on its first connection).</summary>
    protected bool Writable => Access == StoreAccess.ReadWrite;

    /// <summary>Whether <paramref name="directory"/> holds a SQLite store: its database file.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, FileName));

    internal static void Check(int rc, sqlite3 db)
    {
        if (rc is not (raw.SQLITE_OK or raw.SQLITE_ROW or raw.SQLITE_DONE))
        {
            SqliteException.ThrowExceptionForRC(rc, db);
        }
    }

    internal static void Check(int rc, sqlite3_stmt statement) => Check(rc, raw.sqlite3_db_handle(statement));

    /// <summary>Binds a blob; SQLite would read an empty span as NULL, so an empty one is bound as a zero-length blob.</summary>
    internal static void BindBlob(sqlite3_stmt statement, int parameter, ReadOnlySpan<byte> blob) =>
        Check(blob.IsEmpty ? raw.sqlite3_bind_zeroblob(statement, parameter, 0) : raw.sqlite3_bind_blob(statement, parameter, blob), statement);

    /// <summary>The connection string of one of the store's connections.</summary>
    /// <param name="path">The database file.</param>
    /// <param name="options">The store's access and shared-cache setting.</param>
    /// <param name="pooling">
    /// Whether Microsoft.Data.Sqlite may keep the connection open after Dispose. Only the ADO.NET row pools, and it
    /// clears its pool when disposed: a store that is closed must let go of its file.
    /// </param>
    internal static string ConnectionString(string path, SqliteStoreOptions options, bool pooling) =>
        new SqliteConnectionStringBuilder
        {
            DataSource = path,
            Mode = options.Access == StoreAccess.ReadWrite ? SqliteOpenMode.ReadWriteCreate : SqliteOpenMode.ReadOnly,
            Cache = options.SharedCache ? SqliteCacheMode.Shared : SqliteCacheMode.Default,
            Pooling = pooling,
        }.ToString();

    /// <summary>
    /// The pragmas every connection runs when it opens, busy handling aside; <paramref name="setsJournal"/> adds the
    /// journal mode, which the file keeps.
    /// </summary>
    internal static IEnumerable<string> ConnectionPragmas(SqliteStoreOptions options, bool setsJournal)
    {
        if (setsJournal)
        {
            yield return options.Journal == SqliteJournal.Wal ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode = DELETE";
        }

        yield return $"PRAGMA synchronous = {Synchronous(options)}";
        if (options.CacheSizeKibibytes is { } cacheKibibytes)
        {
            // A negative cache_size is in KiB, a positive one in pages.
            yield return $"PRAGMA cache_size = {-cacheKibibytes}";
        }

        if (options.MmapSizeBytes is { } mmapBytes)
        {
            yield return $"PRAGMA mmap_size = {mmapBytes}";
        }

        if (options.AutoCheckpointFrames is { } checkpointFrames)
        {
            yield return $"PRAGMA wal_autocheckpoint = {Math.Max(checkpointFrames, 0)}";
        }
    }

    /// <summary>The <c>synchronous</c> setting that makes an acknowledged write reach the tier asked for, and no further.</summary>
    /// <remarks>
    /// In WAL, NORMAL syncs only at checkpoints: a killed process loses nothing, a power cut may lose the last commits.
    /// With the rollback journal NORMAL still flushes the device at every commit (a busy-trap run at NORMAL writes only
    /// as fast as the device flushes), which is more than Buffered asks; OFF hands every commit to the operating system
    /// without a flush, which a killed process cannot undo, and is Buffered's equal. FULL flushes every commit in either
    /// journal.
    /// </remarks>
    internal static string Synchronous(SqliteStoreOptions options) => options switch
    {
        { Durability: Durability.Synced } => "FULL",
        { Journal: SqliteJournal.Wal } => "NORMAL",
        _ => "OFF",
    };

    /// <summary>A connection for one call: the writer's when <paramref name="write"/>, else one that may only read.</summary>
    protected abstract SqliteOperations Acquire(bool write);

    /// <summary>Gives back what <see cref="Acquire"/> returned.</summary>
    protected abstract void Release(SqliteOperations operations, bool write);

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using var lease = new Lease(this, write: true);
        lease.Operations.Upsert(key, value);
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using var lease = new Lease(this, write: true);
        lease.Operations.UpsertAll(items);
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using var lease = new Lease(this, write: false);
        return lease.Operations.TryGet(key, destination);
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        using var lease = new Lease(this, write: false);
        return lease.Operations.Get(key);
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        using var lease = new Lease(this, write: false);
        return lease.Operations.ContainsKey(key);
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        using var lease = new Lease(this, write: true);
        return lease.Operations.Delete(key);
    }

    // Pages keep a connection only as long as one page takes: a caller may take its time between items, or write while it scans.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadPage);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadPage);

    // Every commit already reached the tier chosen at open (synchronous=NORMAL or FULL): nothing is held back.
    protected override void FlushCore()
    {
    }

    /// <summary>Opens one connection with its prepared statements; the first of a writable store creates the schema.</summary>
    protected SqlitePreparedStatements OpenStatements(bool createsSchema) => new(DatabasePath, Schema, Options, createsSchema && Writable);

    private bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        ThrowIfDisposed();
        using var lease = new Lease(this, write: false);
        return lease.Operations.ReadPage(lower, upper, maxEntries, page);
    }

    /// <summary>A connection held for one call and given back when disposed, whatever the call threw.</summary>
    private readonly ref struct Lease
    {
        private readonly SqliteStoreBase _store;
        private readonly bool _write;

        public Lease(SqliteStoreBase store, bool write)
        {
            _store = store;
            _write = write;
            Operations = store.Acquire(write);
        }

        public SqliteOperations Operations { get; }

        public void Dispose() => _store.Release(Operations, _write);
    }
}
