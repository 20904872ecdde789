using System.Buffers;

using KvBench.Stores.Baselines;

using Microsoft.Data.Sqlite;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// <c>Sqlite_WAL_naive</c>: the code most samples show. Every call opens a pooled connection, builds a new command
/// (so SQLite parses and prepares the statement again), passes the key and value as new arrays and reads through
/// <see cref="SqliteCommand.ExecuteScalar"/>. Same table, journal and <c>synchronous=NORMAL</c> as the tuned row.
/// </summary>
internal sealed class SqliteWalNaive : IPointTarget
{
    private const string Upsert = "INSERT INTO kv (key, value) VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value";
    private const string Select = "SELECT value FROM kv WHERE key = $key";
    private const string Exists = "SELECT 1 FROM kv WHERE key = $key";

    private readonly string _connectionString;

    public SqliteWalNaive(string directory)
    {
        _connectionString = new SqliteConnectionStringBuilder { DataSource = Path.Combine(directory, "naive.db") }.ToString();
        using (SqliteConnection connection = OpenConnection())
        {
            Execute(connection, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; " + new BlobKeySchema().CreateTable);
        }

        // synchronous is a per-connection setting: the pool must hand back the connection that has it, or this row
        // would sync every commit and not be Buffered like the others.
        using (SqliteConnection connection = OpenConnection())
        using (SqliteCommand command = Command(connection, "PRAGMA synchronous"))
        {
            if (Convert.ToInt64(command.ExecuteScalar(), System.Globalization.CultureInfo.InvariantCulture) != 1)
            {
                throw new InvalidOperationException("The pooled connection lost synchronous=NORMAL; Sqlite_WAL_naive would not be Buffered.");
            }
        }
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using SqliteConnection connection = OpenConnection();
        using SqliteCommand command = Command(connection, Upsert);
        command.Parameters.AddWithValue("$key", key.ToArray());
        command.Parameters.AddWithValue("$value", value.ToArray());
        command.ExecuteNonQuery();
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => IPointTarget.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        using SqliteConnection connection = OpenConnection();
        using SqliteCommand command = Command(connection, Select);
        command.Parameters.AddWithValue("$key", key.ToArray());
        return command.ExecuteScalar() as byte[];
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        using SqliteConnection connection = OpenConnection();
        using SqliteCommand command = Command(connection, Exists);
        command.Parameters.AddWithValue("$key", key.ToArray());
        return command.ExecuteScalar() is not null;
    }

    public void Dispose()
    {
        // A pooled connection keeps the file open after Close; let go of it so the directory can be deleted.
        using var connection = new SqliteConnection(_connectionString);
        SqliteConnection.ClearPool(connection);
    }

    private SqliteConnection OpenConnection()
    {
        var connection = new SqliteConnection(_connectionString);
        connection.Open();
        return connection;
    }

    private static SqliteCommand Command(SqliteConnection connection, string sql)
    {
        SqliteCommand command = connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }

    private static void Execute(SqliteConnection connection, string sql)
    {
        using SqliteCommand command = Command(connection, sql);
        command.ExecuteNonQuery();
    }
}
