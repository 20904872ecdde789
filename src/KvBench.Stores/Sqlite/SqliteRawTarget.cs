using System.Buffers;

using KvBench.Stores.Baselines;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// SQLite through SQLitePCLRaw alone: one connection, WAL with <c>synchronous=NORMAL</c> (Buffered), one statement
/// prepared per operation, spans bound and column spans read directly. The table and statements are the adapter's own
/// (<see cref="SqliteSchema"/>), so the ratio compares the same SQL; the subclass says how a key binds.
/// </summary>
internal abstract class SqliteRawTarget : IPointTarget
{
    private readonly sqlite3 _db;
    private readonly sqlite3_stmt _upsert;
    private readonly sqlite3_stmt _select;
    private readonly sqlite3_stmt _exists;

    protected SqliteRawTarget(string directory, SqliteSchema schema)
    {
        Batteries_V2.Init();
        Check(raw.sqlite3_open_v2(Path.Combine(directory, "raw.db"), out _db, raw.SQLITE_OPEN_READWRITE | raw.SQLITE_OPEN_CREATE, null));
        Execute("PRAGMA journal_mode = WAL");
        Execute("PRAGMA synchronous = NORMAL");
        Execute(schema.CreateTable);
        _upsert = Prepare(schema.Upsert);
        _select = Prepare(schema.SelectValue);
        _exists = Prepare(schema.SelectExists);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        int valueParameter = BindKey(_upsert, key);
        raw.sqlite3_bind_blob(_upsert, valueParameter, value);
        int rc = raw.sqlite3_step(_upsert);
        raw.sqlite3_reset(_upsert);
        Check(rc);
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        BindKey(_select, key);
        bool found = Step(_select);
        if (found)
        {
            ReadOnlySpan<byte> value = raw.sqlite3_column_blob(_select, 0);
            destination.Write(value);
        }

        raw.sqlite3_reset(_select);
        return found;
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        BindKey(_select, key);
        byte[]? value = Step(_select) ? raw.sqlite3_column_blob(_select, 0).ToArray() : null;
        raw.sqlite3_reset(_select);
        return value;
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        BindKey(_exists, key);
        bool found = Step(_exists);
        raw.sqlite3_reset(_exists);
        return found;
    }

    /// <summary>One transaction for the whole load: SQLite's own advice for bulk inserts.</summary>
    public void Load(IEnumerable<KeyValuePair<byte[], byte[]>> records)
    {
        Execute("BEGIN");
        foreach (KeyValuePair<byte[], byte[]> record in records)
        {
            Put(record.Key, record.Value);
        }

        Execute("COMMIT");
    }

    public void Dispose()
    {
        _upsert.Dispose();
        _select.Dispose();
        _exists.Dispose();
        _db.Dispose();
    }

    /// <summary>Binds <paramref name="key"/> from parameter 1 and returns the next parameter's number.</summary>
    protected abstract int BindKey(sqlite3_stmt statement, ReadOnlySpan<byte> key);

    private bool Step(sqlite3_stmt statement)
    {
        int rc = raw.sqlite3_step(statement);
        Check(rc);
        return rc == raw.SQLITE_ROW;
    }

    private void Check(int rc)
    {
        if (rc is not (raw.SQLITE_OK or raw.SQLITE_ROW or raw.SQLITE_DONE))
        {
            SqliteException.ThrowExceptionForRC(rc, _db);
        }
    }

    private sqlite3_stmt Prepare(string sql)
    {
        Check(raw.sqlite3_prepare_v2(_db, sql, out sqlite3_stmt statement));
        return statement;
    }

    private void Execute(string sql) => Check(raw.sqlite3_exec(_db, sql));
}
