using KvBench.Stores.Servers;

using MySqlConnector;

namespace KvBench.Stores.MariaDb;

/// <summary><c>MariaDB_raw</c>: MySqlConnector used directly, <c>INSERT ... ON DUPLICATE KEY UPDATE</c> as the adapter's default upsert.</summary>
internal sealed class MariaDbRaw(string directory) : SqlRawTarget(
    Open(directory, out string table),
    MariaDbStore.Statements(table, MariaDbUpsert.InsertOnDuplicateKeyUpdate),
    () => MariaDbStore.VarBinary([]))
{
    private static MySqlConnection Open(string directory, out string table)
    {
        ServerRawStore store = ServerRawStore.For(MariaDbRow.RowName, directory);
        table = store.StoreName;
        var connection = new MySqlConnection(MariaDbStore.DatabaseConnectionString(store.Endpoint).ConnectionString);
        connection.Open();
        return connection;
    }
}
