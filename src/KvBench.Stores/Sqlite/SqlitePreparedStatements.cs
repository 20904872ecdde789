using System.Buffers;

using KvBench.Core;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// One connection, opened through Microsoft.Data.Sqlite for its pragmas, and SQLitePCLRaw statements prepared once on
/// it, so a call binds spans and reads column spans without a command, reader or array per call.
/// </summary>
/// <remarks>Not thread-safe: the strategy that owns it hands it to one caller at a time.</remarks>
internal sealed class SqlitePreparedStatements : SqliteOperations
{
    private const int ScanPageSize = 256;

    private readonly SqliteSchema _schema;
    private readonly bool _retryLocked;
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
    private readonly SqliteCommitClock? _commitClock;

    /// <summary>Opens a connection to <paramref name="path"/> and prepares every statement.</summary>
    /// <param name="path">The database file.</param>
    /// <param name="schema">The table's layout.</param>
    /// <param name="options">The store's settings.</param>
    /// <param name="createsSchema">Whether this connection sets the journal and creates the table (the store's first read-write connection).</param>
    public SqlitePreparedStatements(string path, SqliteSchema schema, SqliteStoreOptions options, bool createsSchema)
    {
        _schema = schema;

        // In a shared cache, connections lock tables against each other and get SQLITE_LOCKED at once, which no
        // busy timeout waits for: the statement is reset and stepped again until the other connection is done.
        _retryLocked = options.SharedCache;
        _connection = new SqliteConnection(SqliteStoreBase.ConnectionString(path, options, pooling: false));
        _connection.Open();
        _db = _connection.Handle!;

        Execute($"PRAGMA busy_timeout = {options.BusyTimeoutMilliseconds}");
        foreach (string pragma in SqliteStoreBase.ConnectionPragmas(options, createsSchema))
        {
            Execute(pragma);
        }

        if (createsSchema)
        {
            Execute(schema.CreateTable);
        }

        // Only a connection that may write in WAL commits through the WAL hook; the schema is there, so the file's journal is known.
        if (options.Access == StoreAccess.ReadWrite && options.Journal == SqliteJournal.Wal)
        {
            _commitClock = SqliteCommitClock.Install(_db, QueryInt("PRAGMA wal_autocheckpoint"));
        }

        _upsert = Prepare(schema.UpsertWith(options.Upsert));
        _selectValue = Prepare(schema.SelectValue);
        _selectExists = Prepare(schema.SelectExists);
        _deleteKey = Prepare(schema.DeleteKey);
        _scanFrom = Prepare(schema.ScanFrom);
        _scanRange = Prepare(schema.ScanRange);
        _begin = Prepare("BEGIN IMMEDIATE");
        _commit = Prepare("COMMIT");
        _rollback = Prepare("ROLLBACK");
    }

    /// <summary>This connection's last commit, or the default when it is not a writer in WAL or has not committed.</summary>
    public SqliteCommitTiming LastCommit => _commitClock?.LastCommit ?? default;

    /// <summary>The WAL frames at which this connection's commits checkpoint, or 0 when it is not a writer in WAL.</summary>
    public int AutoCheckpointFrames => _commitClock?.CheckpointFrames ?? 0;

    public override void Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        try
        {
            _schema.BindKey(_upsert, 1, key);
            SqliteStoreBase.BindBlob(_upsert, _schema.KeyParameterCount + 1, value);
            SqliteStoreBase.Check(Step(_upsert), _db);
        }
        finally
        {
            raw.sqlite3_reset(_upsert);
        }
    }

    public override void UpsertAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        StepOnce(_begin);
        try
        {
            foreach (KeyValuePair<byte[], byte[]> item in items)
            {
                Upsert(item.Key, item.Value);
            }

            StepOnce(_commit);
        }
        catch
        {
            StepOnce(_rollback);
            throw;
        }
    }

    public override bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        try
        {
            if (!Seek(_selectValue, key))
            {
                return false;
            }

            ReadOnlySpan<byte> value = raw.sqlite3_column_blob(_selectValue, 0);
            value.CopyTo(destination.GetSpan(value.Length));
            destination.Advance(value.Length);
            return true;
        }
        finally
        {
            raw.sqlite3_reset(_selectValue);
        }
    }

    public override byte[]? Get(ReadOnlySpan<byte> key)
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

    public override bool ContainsKey(ReadOnlySpan<byte> key)
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

    public override bool Delete(ReadOnlySpan<byte> key)
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

    public override bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int keyParameters = _schema.KeyParameterCount;
        int pageSize = Math.Min(ScanPageSize, maxEntries);
        sqlite3_stmt statement = upper is null ? _scanFrom : _scanRange;
        try
        {
            _schema.BindKey(statement, 1, lower);
            if (upper is not null)
            {
                _schema.BindKey(statement, keyParameters + 1, upper);
            }

            SqliteStoreBase.Check(raw.sqlite3_bind_int(statement, _schema.PageSizeParameter(upper is not null), pageSize), _db);
            int rc = Step(statement);
            for (; rc == raw.SQLITE_ROW; rc = raw.sqlite3_step(statement))
            {
                page.Add(new(_schema.ReadKey(statement), raw.sqlite3_column_blob(statement, keyParameters).ToArray()));
            }

            SqliteStoreBase.Check(rc, _db);
            return page.Count == pageSize;
        }
        finally
        {
            raw.sqlite3_reset(statement);
        }
    }

    public override void Dispose()
    {
        foreach (sqlite3_stmt statement in new[] { _upsert, _selectValue, _selectExists, _deleteKey, _scanFrom, _scanRange, _begin, _commit, _rollback })
        {
            statement.Dispose();
        }

        _connection.Dispose();
        _commitClock?.Dispose();
    }

    /// <summary>Binds <paramref name="key"/> and steps once; the caller resets the statement.</summary>
    private bool Seek(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        _schema.BindKey(statement, 1, key);
        int rc = Step(statement);
        SqliteStoreBase.Check(rc, _db);
        return rc == raw.SQLITE_ROW;
    }

    /// <summary>The first step of a statement, stepped again while a shared cache reports another connection's table lock.</summary>
    private int Step(sqlite3_stmt statement)
    {
        int rc;
        while (((rc = raw.sqlite3_step(statement)) & 0xFF) == raw.SQLITE_LOCKED && _retryLocked)
        {
            raw.sqlite3_reset(statement);
            Thread.Yield();
        }

        return rc;
    }

    private void StepOnce(sqlite3_stmt statement)
    {
        try
        {
            SqliteStoreBase.Check(Step(statement), _db);
        }
        finally
        {
            raw.sqlite3_reset(statement);
        }
    }

    private sqlite3_stmt Prepare(string sql)
    {
        SqliteStoreBase.Check(raw.sqlite3_prepare_v3(_db, sql, raw.SQLITE_PREPARE_PERSISTENT, out sqlite3_stmt statement), _db);
        return statement;
    }

    /// <summary>Rolls back the open transaction, if SQLite has not already rolled it back itself.</summary>
    public void RollbackIfOpen()
    {
        if (raw.sqlite3_get_autocommit(_db) == 0)
        {
            Execute("ROLLBACK");
        }
    }

    private int QueryInt(string sql)
    {
        SqliteStoreBase.Check(raw.sqlite3_prepare_v2(_db, sql, out sqlite3_stmt statement), _db);
        using (statement)
        {
            SqliteStoreBase.Check(raw.sqlite3_step(statement), _db);
            return raw.sqlite3_column_int(statement, 0);
        }
    }

    /// <summary>Runs <paramref name="sql"/> (no parameters, no rows), prepared anew each time.</summary>
    public void Execute(string sql)
    {
        int rc;
        while (((rc = raw.sqlite3_exec(_db, sql)) & 0xFF) == raw.SQLITE_LOCKED && _retryLocked)
        {
            Thread.Yield();
        }

        SqliteStoreBase.Check(rc, _db);
    }
}
