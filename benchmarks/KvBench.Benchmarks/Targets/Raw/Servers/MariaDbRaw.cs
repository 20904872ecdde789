using KvBench.Evaluation.Measuring;
using KvBench.Stores;
using KvBench.Stores.MariaDb;

using MySqlConnector;

namespace KvBench.Benchmarks.Targets.Raw.Servers;

/// <summary><c>MariaDB_raw</c>: MySqlConnector used directly, <c>INSERT ... ON DUPLICATE KEY UPDATE</c> as the adapter's default upsert.</summary>
[PointVariant(StoreNames.MariaDb, RowVariantKind.Raw)]
internal sealed class MariaDbRaw(string directory) : SqlRawTarget(
    Open(directory, out string table),
    MariaDbStore.Statements(table, MariaDbUpsert.InsertOnDuplicateKeyUpdate),
    () => MariaDbStore.VarBinary([]))
{
    private static MySqlConnection Open(string directory, out string table)
    {
        ServerRawStore store = ServerRawStore.For(StoreNames.MariaDb, directory);
        table = store.StoreName;
        var connection = new MySqlConnection(MariaDbStore.DatabaseConnectionString(store.Endpoint).ConnectionString);
        connection.Open();
        return connection;
    }
}
