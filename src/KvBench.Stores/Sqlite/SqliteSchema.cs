using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// How one SQLite row lays keys out in a table: its SQL and how a key becomes parameters and comes back from columns.
/// Parameters are numbered: a key takes ?1..?K, a value ?K+1, a scan's upper bound ?K+1..?2K, and its page size the next
/// number (<see cref="PageSizeParameter"/>), so no number is skipped: ADO.NET refuses a statement with an unnamed gap.
/// </summary>
internal abstract class SqliteSchema
{
    /// <summary>How many parameters (and result columns) one key takes.</summary>
    public abstract int KeyParameterCount { get; }

    public abstract string CreateTable { get; }

    /// <summary><c>INSERT ... ON CONFLICT DO UPDATE</c>: the row is updated in place.</summary>
    public abstract string Upsert { get; }

    /// <summary><c>INSERT OR REPLACE</c>: the old row is deleted and the new one inserted.</summary>
    public abstract string InsertOrReplace { get; }

    public abstract string SelectValue { get; }

    public abstract string SelectExists { get; }

    public abstract string DeleteKey { get; }

    /// <summary>Entries with key ≥ the lower bound, ordered, at most one page.</summary>
    public abstract string ScanFrom { get; }

    /// <summary>Entries with lower bound ≤ key &lt; upper bound, ordered, at most one page.</summary>
    public abstract string ScanRange { get; }

    public abstract void BindKey(sqlite3_stmt statement, int firstParameter, ReadOnlySpan<byte> key);

    public abstract byte[] ReadKey(sqlite3_stmt statement);

    /// <summary>Adds <paramref name="key"/> as the ADO.NET parameters ?<paramref name="firstParameter"/> onwards.</summary>
    public abstract void AddKey(SqliteParameterCollection parameters, int firstParameter, ReadOnlySpan<byte> key);

    /// <summary>The key of the row <paramref name="reader"/> is on (its first columns).</summary>
    public abstract byte[] ReadKey(SqliteDataReader reader);

    /// <summary>The page-size parameter of <see cref="ScanRange"/> (<paramref name="bounded"/>) or <see cref="ScanFrom"/>.</summary>
    public int PageSizeParameter(bool bounded) => (bounded ? 2 * KeyParameterCount : KeyParameterCount) + 1;

    /// <summary>The upsert statement of <paramref name="form"/>.</summary>
    public string UpsertWith(SqliteUpsert form) => form == SqliteUpsert.InsertOrReplace ? InsertOrReplace : Upsert;

    /// <summary>Adds a blob parameter named as SQLite numbers it (?N), so one SQL text serves the raw and the ADO.NET paths.</summary>
    protected static void AddBlob(SqliteParameterCollection parameters, int parameter, ReadOnlySpan<byte> blob) =>
        parameters.Add($"?{parameter}", SqliteType.Blob).Value = blob.ToArray();
}

/// <summary><c>Sqlite_WAL</c>: one <c>WITHOUT ROWID</c> table of blob pairs; BLOBs compare with memcmp, so the primary key is the byte order.</summary>
internal sealed class BlobKeySchema : SqliteSchema
{
    public override int KeyParameterCount => 1;

    public override string CreateTable => "CREATE TABLE IF NOT EXISTS kv (key BLOB NOT NULL PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID";

    public override string Upsert => "INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value";

    public override string InsertOrReplace => "INSERT OR REPLACE INTO kv (key, value) VALUES (?1, ?2)";

    public override string SelectValue => "SELECT value FROM kv WHERE key = ?1";

    public override string SelectExists => "SELECT 1 FROM kv WHERE key = ?1";

    public override string DeleteKey => "DELETE FROM kv WHERE key = ?1";

    public override string ScanFrom => "SELECT key, value FROM kv WHERE key >= ?1 ORDER BY key LIMIT ?2";

    public override string ScanRange => "SELECT key, value FROM kv WHERE key >= ?1 AND key < ?2 ORDER BY key LIMIT ?3";

    public override void BindKey(sqlite3_stmt statement, int firstParameter, ReadOnlySpan<byte> key) =>
        SqliteStoreBase.BindBlob(statement, firstParameter, key);

    public override byte[] ReadKey(sqlite3_stmt statement) => raw.sqlite3_column_blob(statement, 0).ToArray();

    public override void AddKey(SqliteParameterCollection parameters, int firstParameter, ReadOnlySpan<byte> key) => AddBlob(parameters, firstParameter, key);

    public override byte[] ReadKey(SqliteDataReader reader) => reader.GetFieldValue<byte[]>(0);
}

/// <summary>
/// <c>Sqlite_Scalar</c>: typed columns instead of one blob pair. The first key byte is an INTEGER category, the rest a
/// BLOB id; the primary key (category, id) orders exactly as the key bytes do, so prefix scans seek that index
/// with row-value comparisons.
/// </summary>
internal sealed class ScalarKeySchema : SqliteSchema
{
    public override int KeyParameterCount => 2;

    public override string CreateTable =>
        "CREATE TABLE IF NOT EXISTS kv_scalar (category INTEGER NOT NULL, id BLOB NOT NULL, value BLOB NOT NULL, PRIMARY KEY (category, id)) WITHOUT ROWID";

    public override string Upsert =>
        "INSERT INTO kv_scalar (category, id, value) VALUES (?1, ?2, ?3) ON CONFLICT (category, id) DO UPDATE SET value = excluded.value";

    public override string InsertOrReplace => "INSERT OR REPLACE INTO kv_scalar (category, id, value) VALUES (?1, ?2, ?3)";

    public override string SelectValue => "SELECT value FROM kv_scalar WHERE category = ?1 AND id = ?2";

    public override string SelectExists => "SELECT 1 FROM kv_scalar WHERE category = ?1 AND id = ?2";

    public override string DeleteKey => "DELETE FROM kv_scalar WHERE category = ?1 AND id = ?2";

    public override string ScanFrom =>
        "SELECT category, id, value FROM kv_scalar WHERE (category, id) >= (?1, ?2) ORDER BY category, id LIMIT ?3";

    public override string ScanRange =>
        "SELECT category, id, value FROM kv_scalar WHERE (category, id) >= (?1, ?2) AND (category, id) < (?3, ?4) ORDER BY category, id LIMIT ?5";

    public override void BindKey(sqlite3_stmt statement, int firstParameter, ReadOnlySpan<byte> key)
    {
        SqliteStoreBase.Check(raw.sqlite3_bind_int(statement, firstParameter, key[0]), statement);
        SqliteStoreBase.BindBlob(statement, firstParameter + 1, key[1..]);
    }

    public override byte[] ReadKey(sqlite3_stmt statement)
    {
        ReadOnlySpan<byte> id = raw.sqlite3_column_blob(statement, 1);
        byte[] key = new byte[id.Length + 1];
        key[0] = (byte)raw.sqlite3_column_int(statement, 0);
        id.CopyTo(key.AsSpan(1));
        return key;
    }

    public override void AddKey(SqliteParameterCollection parameters, int firstParameter, ReadOnlySpan<byte> key)
    {
        parameters.Add($"?{firstParameter}", SqliteType.Integer).Value = (int)key[0];
        AddBlob(parameters, firstParameter + 1, key[1..]);
    }

    public override byte[] ReadKey(SqliteDataReader reader) => [(byte)reader.GetInt32(0), .. reader.GetFieldValue<byte[]>(1)];
}
