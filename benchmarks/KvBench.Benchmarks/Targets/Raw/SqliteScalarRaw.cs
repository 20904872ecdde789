using KvBench.Evaluation.Measuring;
using KvBench.Stores;

using SQLitePCL;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary><c>Sqlite_Scalar_raw</c>: the first key byte an INTEGER category, the rest a BLOB id, through SQLitePCLRaw.</summary>
[PointVariant(StoreNames.SqliteScalar, RowVariantKind.Raw)]
internal sealed class SqliteScalarRaw(string directory) : SqliteRawTarget(
    directory,
    "CREATE TABLE IF NOT EXISTS kv_scalar (category INTEGER NOT NULL, id BLOB NOT NULL, value BLOB NOT NULL, PRIMARY KEY (category, id)) WITHOUT ROWID",
    "INSERT INTO kv_scalar (category, id, value) VALUES (?1, ?2, ?3) ON CONFLICT (category, id) DO UPDATE SET value = excluded.value",
    "SELECT value FROM kv_scalar WHERE category = ?1 AND id = ?2",
    "SELECT 1 FROM kv_scalar WHERE category = ?1 AND id = ?2")
{
    protected override int BindKey(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        raw.sqlite3_bind_int(statement, 1, key[0]);
        raw.sqlite3_bind_blob(statement, 2, key[1..]);
        return 3;
    }
}
