using KvBench.Evaluation.Measuring;
using KvBench.Stores;
using KvBench.Stores.PostgreSql;

using Npgsql;

using NpgsqlTypes;

namespace KvBench.Benchmarks.Targets.Raw.Servers;

/// <summary><c>PostgreSQL_raw</c>: Npgsql used directly, the session at the adapter's <c>synchronous_commit</c>.</summary>
[PointVariant(StoreNames.PostgreSql, RowVariantKind.Raw)]
internal sealed class PostgreSqlRaw(string directory) : SqlRawTarget(
    Open(directory, out string table),
    PostgreSqlStore.Statements($"\"{table}\""),
    () => new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Bytea })
{
    private static NpgsqlConnection Open(string directory, out string table)
    {
        ServerRawStore store = ServerRawStore.For(StoreNames.PostgreSql, directory);
        table = store.StoreName;
        var connection = new NpgsqlConnection(PostgreSqlStore.SessionConnectionString(store.Endpoint, store.Durability).ConnectionString);
        connection.Open();
        return connection;
    }
}
