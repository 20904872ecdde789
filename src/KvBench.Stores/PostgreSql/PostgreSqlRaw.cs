using KvBench.Stores.Servers;

using Npgsql;

using NpgsqlTypes;

namespace KvBench.Stores.PostgreSql;

/// <summary><c>PostgreSQL_raw</c>: Npgsql used directly, the session at the adapter's <c>synchronous_commit</c>.</summary>
internal sealed class PostgreSqlRaw(string directory) : SqlRawTarget(
    Open(directory, out string table),
    PostgreSqlStore.Statements($"\"{table}\""),
    () => new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Bytea })
{
    private static NpgsqlConnection Open(string directory, out string table)
    {
        ServerRawStore store = ServerRawStore.For(PostgreSqlRow.RowName, directory);
        table = store.StoreName;
        var connection = new NpgsqlConnection(PostgreSqlStore.SessionConnectionString(store.Endpoint, store.Durability).ConnectionString);
        connection.Open();
        return connection;
    }
}
