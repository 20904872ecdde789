using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary><c>Sqlite_WAL_raw</c>: one blob-pair <c>WITHOUT ROWID</c> table through SQLitePCLRaw.</summary>
internal sealed class SqliteWalRaw(string directory) : SqliteRawTarget(directory, new BlobKeySchema())
{
    protected override int BindKey(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        raw.sqlite3_bind_blob(statement, 1, key);
        return 2;
    }
}
