using System.Data.Common;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Servers;

using MySqlConnector;

namespace KvBench.Stores.MariaDb;

/// <summary>
/// A store on a MariaDB server: one InnoDB table <c>(k VARBINARY(3072) PRIMARY KEY, v LONGBLOB)</c>, clustered on the
/// key, which VARBINARY compares byte by byte (no padding, no collation), so a prefix scan is a range seek. Every call
/// takes a connection from MySqlConnector's pool and runs a prepared statement (each connection keeps its own).
/// </summary>
internal sealed class MariaDbStore : SqlTableStore
{
    /// <summary>InnoDB's longest index key with 16 KiB pages and the DYNAMIC row format, MariaDB's default.</summary>
    internal const int MaxKeyBytes = 3072;

    /// <summary>The database KvBench creates when the endpoint is <c>host:port</c>.</summary>
    private const string DefaultDatabase = "kvbench";

    public MariaDbStore(StoreRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(
            row, options, OpenDataSource(endpoint),
            Statements(storeName, (options as MariaDbStoreOptions)?.Upsert ?? MariaDbUpsert.InsertOnDuplicateKeyUpdate))
    {
        try
        {
            CheckDurability(row.Name, options.Durability);
            if (options.Access == StoreAccess.ReadWrite)
            {
                Scalar($"CREATE TABLE IF NOT EXISTS {storeName} (k VARBINARY({MaxKeyBytes}) NOT NULL PRIMARY KEY, v LONGBLOB NOT NULL) ENGINE=InnoDB");
            }
            else if (Convert.ToInt64(
                Scalar(
                    "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
                    new MySqlParameter { Value = storeName }),
                CultureInfo.InvariantCulture) == 0)
            {
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }
        }
        catch
        {
            DataSource.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The connection string for <paramref name="endpoint"/>: a MySqlConnector connection string as it is, or
    /// <c>host:port</c> as root without a password (what KvBench's own server has) and no database chosen yet.
    /// </summary>
    internal static MySqlConnectionStringBuilder ConnectionString(string endpoint)
    {
        if (endpoint.Contains('=', StringComparison.Ordinal))
        {
            return new MySqlConnectionStringBuilder(endpoint);
        }

        return HostPort.TryParse(endpoint, out HostPort server)
            ? new MySqlConnectionStringBuilder { Server = server.Host, Port = (uint)server.Port, UserID = "root" }
            : throw new ArgumentException($"'{endpoint}' is neither host:port nor a MySqlConnector connection string.", nameof(endpoint));
    }

    /// <summary>Creates KvBench's database on the server at a <c>host:port</c> <paramref name="endpoint"/> unless it is there.</summary>
    internal static async Task CreateDatabaseAsync(string endpoint, CancellationToken cancellationToken)
    {
        MySqlConnectionStringBuilder builder = ConnectionString(endpoint);
        builder.Pooling = false;
        builder.ConnectionTimeout = 2;
        await using var connection = new MySqlConnection(builder.ConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        await using var command = new MySqlCommand($"CREATE DATABASE IF NOT EXISTS {DefaultDatabase}", connection);
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// The connection string of the database the row's stores live in on <paramref name="endpoint"/>: the one the
    /// endpoint names, or KvBench's own, created first where the endpoint names none.
    /// </summary>
    internal static MySqlConnectionStringBuilder DatabaseConnectionString(string endpoint)
    {
        MySqlConnectionStringBuilder builder = ConnectionString(endpoint);
        if (string.IsNullOrEmpty(builder.Database))
        {
            CreateDatabaseAsync(endpoint, CancellationToken.None).GetAwaiter().GetResult();
            builder.Database = DefaultDatabase;
        }

        return builder;
    }

    /// <summary>Opens MySqlConnector's pool for the row's database on <paramref name="endpoint"/>.</summary>
    private static MySqlDataSource OpenDataSource(string endpoint)
    {
        MySqlConnectionStringBuilder builder = DatabaseConnectionString(endpoint);

        // The store never changes a session's state, so a connection taken from the pool needs no reset; a reset
        // (MySqlConnector's default) costs a round trip per call and drops the session's prepared statements, so each
        // call also prepared its statement again: the adapter took several times as long as MySqlConnector on one
        // open connection (see ServerPointOperations).
        builder.ConnectionReset = false;
        return new MySqlDataSource(builder.ConnectionString);
    }

    /// <summary>The statements on <paramref name="table"/>, with MySqlConnector's positional parameters, writing with <paramref name="upsert"/>.</summary>
    internal static SqlTableStatements Statements(string table, MariaDbUpsert upsert) => new(
        Upsert: upsert == MariaDbUpsert.Replace
            ? $"REPLACE INTO {table} (k, v) VALUES (?, ?)"
            : $"INSERT INTO {table} (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)",
        Select: $"SELECT v FROM {table} WHERE k = ?",
        Exists: $"SELECT 1 FROM {table} WHERE k = ?",
        Delete: $"DELETE FROM {table} WHERE k = ?",
        RangeFrom: $"SELECT k, v FROM {table} WHERE k >= ? ORDER BY k LIMIT ?",
        RangeBetween: $"SELECT k, v FROM {table} WHERE k >= ? AND k < ? ORDER BY k LIMIT ?");

    /// <summary>A key or value as MySqlConnector sends bytes: VARBINARY, as they are.</summary>
    internal static MySqlParameter VarBinary(byte[] value) => new() { MySqlDbType = MySqlDbType.VarBinary, Value = value };

    protected override DbParameter Bytes(byte[] value) => VarBinary(value);

    protected override DbParameter Integer(int value) => new MySqlParameter { MySqlDbType = MySqlDbType.Int32, Value = value };

    /// <summary>
    /// Prepared: the binary protocol carries the bytes as they are (the text protocol escapes them, up to twice their
    /// size against max_allowed_packet). MySqlConnector keeps each connection's statements prepared.
    /// </summary>
    protected override void Prepare(DbCommand command) => command.Prepare();

    /// <summary>One transaction: one commit, so one redo log flush at Synced.</summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using DbConnection connection = DataSource.OpenConnection();
        using DbTransaction transaction = connection.BeginTransaction();
        using DbCommand command = connection.CreateCommand();
        command.CommandText = Upsert;
        command.Transaction = transaction;
        command.Parameters.Add(Bytes([]));
        command.Parameters.Add(Bytes([]));
        Prepare(command);
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            command.Parameters[0].Value = item.Key;
            command.Parameters[1].Value = item.Value;
            command.ExecuteNonQuery();
        }

        transaction.Commit();
    }

    /// <summary>
    /// Nothing to do: at Synced every commit flushed the redo log before it returned; at Buffered every commit wrote it
    /// to the operating system before it returned, and InnoDB flushes it about once a second on its own.
    /// </summary>
    protected override void FlushCore()
    {
    }

    /// <summary>
    /// Refuses a tier the server is not at: innodb_flush_log_at_trx_commit holds for every session, so the store cannot
    /// set it for itself. KvBench's own servers are started at the tier they serve; a user's is read back here.
    /// </summary>
    private void CheckDurability(string rowName, Durability durability)
    {
        long flushLog = Convert.ToInt64(Scalar("SELECT @@innodb_flush_log_at_trx_commit"), CultureInfo.InvariantCulture);
        DurabilityTiers offered = flushLog switch
        {
            1 => DurabilityTiers.Synced,
            2 => DurabilityTiers.Buffered,
            _ => DurabilityTiers.None,
        };
        if (!offered.Offers(durability))
        {
            throw new DurabilityNotOfferedException(rowName, durability, offered);
        }
    }
}
