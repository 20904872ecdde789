using KvBench.Evaluation.Measuring;
using KvBench.Stores;

using SQLitePCL;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary><c>Sqlite_WAL_raw</c>: one blob-pair <c>WITHOUT ROWID</c> table through SQLitePCLRaw.</summary>
[PointVariant(StoreNames.SqliteWal, RowVariantKind.Raw)]
internal sealed class SqliteWalRaw(string directory) : SqliteRawTarget(
    directory,
    "CREATE TABLE IF NOT EXISTS kv (key BLOB NOT NULL PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
    "INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    "SELECT value FROM kv WHERE key = ?1",
    "SELECT 1 FROM kv WHERE key = ?1")
{
    protected override int BindKey(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        raw.sqlite3_bind_blob(statement, 1, key);
        return 2;
    }
}
