using System.Buffers;

using KvBench.Core;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// SQLite through Microsoft.Data.Sqlite for opening and pragmas, and SQLitePCLRaw statements prepared once for every
/// operation, so a call binds spans and reads column spans without a command, reader or array per call.
/// </summary>
/// <remarks>
/// Threads share one connection behind a lock: SQLite runs one writer at a time anyway, and a pool of connections
/// writing at once is the classic SQLITE_BUSY storm (seeds/000). Other processes are waited for by
/// <c>busy_timeout</c>, SQLite's own fine-grained wait, not Microsoft.Data.Sqlite's 150 ms sleep-and-retry.
/// </remarks>
internal sealed class SqliteStore : StoreAdapter
{
    internal const string FileName = "store.db";

    /// <summary>How long a statement waits for another process's write lock before SQLITE_BUSY reaches the caller.</summary>
    internal const int BusyTimeoutMilliseconds = 10_000;

    private const int ScanPageSize = 256;

    private readonly Lock _gate = new();
    private readonly SqliteSchema _schema;
    private readonly SqliteConnection _connection;
    private readonly sqlite3 _db;
    private readonly sqlite3_stmt _upsert;
    private readonly sqlite3_stmt _selectValue;
    private readonly sqlite3_stmt _selectExists;
    private readonly sqlite3_stmt _deleteKey;
    private readonly sqlite3_stmt _scanFrom;
    private readonly sqlite3_stmt _scanRange;
    private readonly sqlite3_stmt _begin;
    private readonly sqlite3_stmt _commit;
    private readonly sqlite3_stmt _rollback;

    public SqliteStore(string name, SqliteSchema schema, StoreOptions options)
        : base(name, Declared, options)
    {
        _schema = schema;
        Directory.CreateDirectory(options.Directory);
        _connection = new SqliteConnection(new SqliteConnectionStringBuilder
        {
            DataSource = Path.Combine(options.Directory, FileName),
            Mode = options.Access == StoreAccess.ReadWrite ? SqliteOpenMode.ReadWriteCreate : SqliteOpenMode.ReadOnly,
            // Pooling keeps the file open after Dispose; a store that is closed must let go of its file.
            Pooling = false,
        }.ToString());
        _connection.Open();
        _db = _connection.Handle!;

        Execute($"PRAGMA busy_timeout = {BusyTimeoutMilliseconds}");
        if (options.Access == StoreAccess.ReadWrite)
        {
            Execute("PRAGMA journal_mode = WAL");
            Execute(schema.CreateTable);
        }

        // In WAL, NORMAL syncs only at checkpoints: a killed process loses nothing, a power cut may lose the last commits.
        Execute(options.Durability == Durability.Synced ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");

        _upsert = Prepare(schema.Upsert);
        _selectValue = Prepare(schema.SelectValue);
        _selectExists = Prepare(schema.SelectExists);
        _deleteKey = Prepare(schema.DeleteKey);
        _scanFrom = Prepare(schema.ScanFrom);
        _scanRange = Prepare(schema.ScanRange);
        _begin = Prepare("BEGIN IMMEDIATE");
        _commit = Prepare("COMMIT");
        _rollback = Prepare("ROLLBACK");
    }

    /// <summary>Whether <paramref name="directory"/> holds a SQLite store: its database file.</summary>
    internal static bool HoldsStore(string directory) => File.Exists(Path.Combine(directory, FileName));

    internal static StoreCapabilities Declared { get; } = new()
    {
        // SQLITE_MAX_LENGTH (1,000,000,000) bounds a whole row; half each keeps a row with both at their limits legal.
        MaxKeyBytes = 500_000_000,
        MaxValueBytes = 500_000_000,
        GrowsWithoutRestart = true,
        MultiProcess = MultiProcessLevel.Shared,
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };

    internal static string Engine()
    {
        // Asked before any store is opened too (`kvbench --version`): SQLitePCLRaw has no native library until the
        // bundle is initialised, which Microsoft.Data.Sqlite otherwise does on its first connection. Init is idempotent.
        Batteries_V2.Init();
        return $"Microsoft.Data.Sqlite {PackageVersion.Of("Microsoft.Data.Sqlite")}, SQLitePCLRaw {PackageVersion.Of("SQLitePCLRaw.core")}, SQLite {raw.sqlite3_libversion().utf8_to_string()}";
    }

    /// <summary>SQLite's primary result codes for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) and a full disk (SQLITE_FULL).</summary>
    internal static StoreFailure ClassifyError(Exception error) => error switch
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

    protected override StoreFailure ClassifyEngineError(Exception error) => ClassifyError(error);

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

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        lock (_gate)
        {
            Upsert(key, value);
        }
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        lock (_gate)
        {
            try
            {
                if (!Seek(_selectValue, key))
                {
                    return false;
                }

                CopyTo(raw.sqlite3_column_blob(_selectValue, 0), destination);
                return true;
            }
            finally
            {
                raw.sqlite3_reset(_selectValue);
            }
        }
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            try
            {
                return Seek(_selectValue, key) ? raw.sqlite3_column_blob(_selectValue, 0).ToArray() : null;
            }
            finally
            {
                raw.sqlite3_reset(_selectValue);
            }
        }
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            try
            {
                return Seek(_selectExists, key);
            }
            finally
            {
                raw.sqlite3_reset(_selectExists);
            }
        }
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            try
            {
                Seek(_deleteKey, key);
                return raw.sqlite3_changes(_db) > 0;
            }
            finally
            {
                raw.sqlite3_reset(_deleteKey);
            }
        }
    }

    // Pages keep the lock short: a caller may take its time between items, or write while it scans.
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadPage);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadPage);

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        lock (_gate)
        {
            Step(_begin);
            try
            {
                foreach (KeyValuePair<byte[], byte[]> item in items)
                {
                    Upsert(item.Key, item.Value);
                }

                Step(_commit);
            }
            catch
            {
                Step(_rollback);
                throw;
            }
        }
    }

    // Every commit already reached the tier chosen at open (synchronous=NORMAL or FULL): nothing is held back.
    protected override void FlushCore()
    {
    }

    protected override void DisposeCore()
    {
        lock (_gate)
        {
            foreach (sqlite3_stmt statement in new[] { _upsert, _selectValue, _selectExists, _deleteKey, _scanFrom, _scanRange, _begin, _commit, _rollback })
            {
                statement.Dispose();
            }

            _connection.Dispose();
        }
    }

    private void Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        try
        {
            _schema.BindKey(_upsert, 1, key);
            BindBlob(_upsert, _schema.KeyParameterCount + 1, value);
            Check(raw.sqlite3_step(_upsert), _db);
        }
        finally
        {
            raw.sqlite3_reset(_upsert);
        }
    }

    /// <summary>Binds <paramref name="key"/> and steps once; the caller resets the statement.</summary>
    private bool Seek(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        _schema.BindKey(statement, 1, key);
        int rc = raw.sqlite3_step(statement);
        Check(rc, _db);
        return rc == raw.SQLITE_ROW;
    }

    /// <summary>Reads one page of a range with the prepared scan statement; a full page may have more after it.</summary>
    private bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int keyParameters = _schema.KeyParameterCount;
        int pageSize = Math.Min(ScanPageSize, maxEntries);
        lock (_gate)
        {
            ThrowIfDisposed();
            sqlite3_stmt statement = upper is null ? _scanFrom : _scanRange;
            try
            {
                _schema.BindKey(statement, 1, lower);
                if (upper is not null)
                {
                    _schema.BindKey(statement, keyParameters + 1, upper);
                }

                Check(raw.sqlite3_bind_int(statement, (2 * keyParameters) + 1, pageSize), _db);
                int rc;
                while ((rc = raw.sqlite3_step(statement)) == raw.SQLITE_ROW)
                {
                    page.Add(new(_schema.ReadKey(statement), raw.sqlite3_column_blob(statement, keyParameters).ToArray()));
                }

                Check(rc, _db);
                return page.Count == pageSize;
            }
            finally
            {
                raw.sqlite3_reset(statement);
            }
        }
    }

    private void Step(sqlite3_stmt statement)
    {
        try
        {
            Check(raw.sqlite3_step(statement), _db);
        }
        finally
        {
            raw.sqlite3_reset(statement);
        }
    }

    private sqlite3_stmt Prepare(string sql)
    {
        Check(raw.sqlite3_prepare_v3(_db, sql, raw.SQLITE_PREPARE_PERSISTENT, out sqlite3_stmt statement), _db);
        return statement;
    }

    private void Execute(string sql) => Check(raw.sqlite3_exec(_db, sql), _db);
}
