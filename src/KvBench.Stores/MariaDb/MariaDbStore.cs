using System.Buffers;
using System.Data;
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
internal sealed class MariaDbStore : StoreAdapter
{
    /// <summary>InnoDB's longest index key with 16 KiB pages and the DYNAMIC row format, MariaDB's default.</summary>
    internal const int MaxKeyBytes = 3072;

    /// <summary>The database KvBench creates when the endpoint is <c>host:port</c>.</summary>
    private const string DefaultDatabase = "kvbench";

    /// <summary>Rows per scan page: one round trip each.</summary>
    private const int PageSize = 1000;

    private readonly MySqlDataSource _dataSource;
    private readonly string _upsert;
    private readonly string _select;
    private readonly string _exists;
    private readonly string _delete;
    private readonly string _rangeFrom;
    private readonly string _rangeBetween;

    public MariaDbStore(StoreRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(row, options)
    {
        MySqlConnectionStringBuilder builder = ConnectionString(endpoint);
        if (string.IsNullOrEmpty(builder.Database))
        {
            CreateDatabaseAsync(endpoint, CancellationToken.None).GetAwaiter().GetResult();
            builder.Database = DefaultDatabase;
        }

        _dataSource = new MySqlDataSource(builder.ConnectionString);
        _upsert = $"INSERT INTO {storeName} (k, v) VALUES (@k, @v) ON DUPLICATE KEY UPDATE v = VALUES(v)";
        _select = $"SELECT v FROM {storeName} WHERE k = @k";
        _exists = $"SELECT 1 FROM {storeName} WHERE k = @k";
        _delete = $"DELETE FROM {storeName} WHERE k = @k";
        _rangeFrom = $"SELECT k, v FROM {storeName} WHERE k >= @k ORDER BY k LIMIT @take";
        _rangeBetween = $"SELECT k, v FROM {storeName} WHERE k >= @k AND k < @upper ORDER BY k LIMIT @take";
        try
        {
            CheckDurability(row.Name, options.Durability);
            if (options.Access == StoreAccess.ReadWrite)
            {
                Execute($"CREATE TABLE IF NOT EXISTS {storeName} (k VARBINARY({MaxKeyBytes}) NOT NULL PRIMARY KEY, v LONGBLOB NOT NULL) ENGINE=InnoDB");
            }
            else if (Convert.ToInt64(Execute("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = @t", ("@t", storeName)), CultureInfo.InvariantCulture) == 0)
            {
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }
        }
        catch
        {
            _dataSource.Dispose();
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

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        Execute(_upsert, ("@k", key.ToArray()), ("@v", value.ToArray()));

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        byte[]? value = GetCore(key);
        if (value is null)
        {
            return false;
        }

        CopyTo(value, destination);
        return true;
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        using MySqlConnection connection = _dataSource.OpenConnection();
        using MySqlCommand command = Prepared(connection, _select, ("@k", key.ToArray()));
        using MySqlDataReader reader = command.ExecuteReader(CommandBehavior.SingleRow);
        return reader.Read() ? reader.GetFieldValue<byte[]>(0) : null;
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => Execute(_exists, ("@k", key.ToArray())) is not null;

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        using MySqlConnection connection = _dataSource.OpenConnection();
        using MySqlCommand command = Prepared(connection, _delete, ("@k", key.ToArray()));
        return command.ExecuteNonQuery() > 0;
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadRange);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadRange);

    /// <summary>One transaction: one commit, so one redo log flush at Synced.</summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using MySqlConnection connection = _dataSource.OpenConnection();
        using MySqlTransaction transaction = connection.BeginTransaction();
        using MySqlCommand command = Prepared(connection, _upsert, ("@k", Array.Empty<byte>()), ("@v", Array.Empty<byte>()));
        command.Transaction = transaction;
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

    protected override void DisposeCore() => _dataSource.Dispose();

    /// <summary>
    /// A prepared command: the binary protocol carries the bytes as they are (the text protocol escapes them, up to
    /// twice their size against max_allowed_packet). MySqlConnector keeps each connection's statements prepared.
    /// </summary>
    private static MySqlCommand Prepared(MySqlConnection connection, string sql, params (string Name, object Value)[] parameters)
    {
        var command = new MySqlCommand(sql, connection);
        foreach ((string name, object value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }

        command.Prepare();
        return command;
    }

    private object? Execute(string sql, params (string Name, object Value)[] parameters)
    {
        using MySqlConnection connection = _dataSource.OpenConnection();
        using MySqlCommand command = Prepared(connection, sql, parameters);
        return command.ExecuteScalar();
    }

    private bool ReadRange(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int take = Math.Min(maxEntries, PageSize);
        using MySqlConnection connection = _dataSource.OpenConnection();
        using MySqlCommand command = upper is null
            ? Prepared(connection, _rangeFrom, ("@k", lower), ("@take", take))
            : Prepared(connection, _rangeBetween, ("@k", lower), ("@upper", upper), ("@take", take));
        using MySqlDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            page.Add(new(reader.GetFieldValue<byte[]>(0), reader.GetFieldValue<byte[]>(1)));
        }

        return page.Count == take;
    }

    /// <summary>
    /// Refuses a tier the server is not at: innodb_flush_log_at_trx_commit holds for every session, so the store cannot
    /// set it for itself. KvBench's own servers are started at the tier they serve; a user's is read back here.
    /// </summary>
    private void CheckDurability(string rowName, Durability durability)
    {
        long flushLog = Convert.ToInt64(Execute("SELECT @@innodb_flush_log_at_trx_commit"), CultureInfo.InvariantCulture);
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
