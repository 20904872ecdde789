using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary><c>Sqlite_Scalar_raw</c>: the first key byte an INTEGER category, the rest a BLOB id, through SQLitePCLRaw.</summary>
internal sealed class SqliteScalarRaw(string directory) : SqliteRawTarget(directory, new ScalarKeySchema())
{
    protected override int BindKey(sqlite3_stmt statement, ReadOnlySpan<byte> key)
    {
        raw.sqlite3_bind_int(statement, 1, key[0]);
        raw.sqlite3_bind_blob(statement, 2, key[1..]);
        return 3;
    }
}
