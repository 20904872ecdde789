using System.Data.Common;

using KvBench.Core;
using KvBench.Stores.Servers;

using Npgsql;

using NpgsqlTypes;

namespace KvBench.Stores.PostgreSql;

/// <summary>
/// A store on a PostgreSQL server: one table <c>(key bytea PRIMARY KEY, value bytea)</c>, its B-tree ordering keys by
/// their bytes (bytea compares with memcmp), so a prefix scan is a range seek. Every call takes a connection from
/// Npgsql's pool, whose connections keep the statements they ran prepared (automatic preparation).
/// </summary>
internal sealed class PostgreSqlStore : SqlTableStore
{
    /// <summary>
    /// A B-tree index entry holds at most 2,704 bytes on 8 KiB pages (a third of a page); an entry is an 8-byte index
    /// tuple header and the bytea with its 4-byte header, so a key that does not compress fits in 2,692 bytes.
    /// </summary>
    internal const int MaxKeyBytes = 2704 - 8 - 4;

    private readonly Durability _durability;

    public PostgreSqlStore(StoreRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(row, options, OpenDataSource(endpoint, options.Durability), Statements($"\"{storeName}\""))
    {
        _durability = options.Durability;
        try
        {
            CheckDurability(row.Name);
            if (options.Access == StoreAccess.ReadWrite)
            {
                CreateTable($"\"{storeName}\"");
            }
            else if (Scalar($"SELECT to_regclass('{storeName}') IS NOT NULL") is not true)
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
    /// The connection string for <paramref name="endpoint"/>: an Npgsql connection string as it is, or <c>host:port</c>
    /// as the superuser <c>postgres</c> on its database <c>postgres</c> (what KvBench's own server has; it trusts loopback).
    /// </summary>
    internal static NpgsqlConnectionStringBuilder ConnectionString(string endpoint)
    {
        if (endpoint.Contains('=', StringComparison.Ordinal))
        {
            return new NpgsqlConnectionStringBuilder(endpoint);
        }

        return HostPort.TryParse(endpoint, out HostPort server)
            ? new NpgsqlConnectionStringBuilder { Host = server.Host, Port = server.Port, Username = "postgres", Database = "postgres" }
            : throw new ArgumentException($"'{endpoint}' is neither host:port nor an Npgsql connection string.", nameof(endpoint));
    }

    /// <summary>Opens Npgsql's pool for <paramref name="endpoint"/>, every connection at <paramref name="durability"/>.</summary>
    private static NpgsqlDataSource OpenDataSource(string endpoint, Durability durability) =>
        NpgsqlDataSource.Create(SessionConnectionString(endpoint, durability).ConnectionString);

    /// <summary>The connection string of every session the store opens on <paramref name="endpoint"/> at <paramref name="durability"/>.</summary>
    internal static NpgsqlConnectionStringBuilder SessionConnectionString(string endpoint, Durability durability)
    {
        NpgsqlConnectionStringBuilder builder = ConnectionString(endpoint);

        // The tier is the session's own setting, given to every pooled connection as it starts; a later -c wins, so a
        // user's Options cannot weaken it.
        builder.Options = $"{builder.Options} -c synchronous_commit={(durability == Durability.Synced ? "on" : "off")}".Trim();
        builder.MaxAutoPrepare = 16;

        // The store never changes a session's state, so a connection back in the pool needs no DISCARD ALL (which would
        // also drop its prepared statements).
        builder.NoResetOnClose = true;
        return builder;
    }

    /// <summary>The statements on <paramref name="table"/> (quoted), with PostgreSQL's positional parameters.</summary>
    internal static SqlTableStatements Statements(string table) => new(
        Upsert: $"INSERT INTO {table} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        Select: $"SELECT value FROM {table} WHERE key = $1",
        Exists: $"SELECT 1 FROM {table} WHERE key = $1",
        Delete: $"DELETE FROM {table} WHERE key = $1",
        RangeFrom: $"SELECT key, value FROM {table} WHERE key >= $1 ORDER BY key LIMIT $2",
        RangeBetween: $"SELECT key, value FROM {table} WHERE key >= $1 AND key < $2 ORDER BY key LIMIT $3");

    protected override DbParameter Bytes(byte[] value) => Bytea(value);

    protected override DbParameter Integer(int value) => new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Integer, Value = value };

    /// <summary>One transaction, its upserts sent as one batch: one round trip and one commit.</summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        using var connection = (NpgsqlConnection)DataSource.OpenConnection();
        using NpgsqlTransaction transaction = connection.BeginTransaction();
        using var batch = new NpgsqlBatch(connection, transaction);
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            var upsert = new NpgsqlBatchCommand(Upsert);
            upsert.Parameters.Add(Bytea(item.Key));
            upsert.Parameters.Add(Bytea(item.Value));
            batch.BatchCommands.Add(upsert);
        }

        batch.ExecuteNonQuery();
        transaction.Commit();
    }

    /// <summary>
    /// At Synced every commit was flushed before it returned: nothing to do. At Buffered the last commits may still be
    /// in the server's WAL buffers; one synchronous commit (a transaction that takes a transaction id) flushes the WAL up
    /// to itself, and so every commit before it.
    /// </summary>
    protected override void FlushCore()
    {
        if (_durability == Durability.Buffered)
        {
            using var connection = (NpgsqlConnection)DataSource.OpenConnection();
            using NpgsqlTransaction transaction = connection.BeginTransaction();
            using var command = new NpgsqlCommand("SET LOCAL synchronous_commit = on; SELECT pg_current_xact_id();", connection, transaction);
            command.ExecuteNonQuery();
            transaction.Commit();
        }
    }

    private static NpgsqlParameter Bytea(byte[] bytes) => new() { NpgsqlDbType = NpgsqlDbType.Bytea, Value = bytes };

    /// <summary>
    /// Two processes may create the same table at once; CREATE TABLE IF NOT EXISTS then fails in one of them on the
    /// catalog's unique index (23505) or as a duplicate table (42P07), and the table is there either way.
    /// </summary>
    private void CreateTable(string table)
    {
        try
        {
            Scalar($"CREATE TABLE IF NOT EXISTS {table} (key bytea PRIMARY KEY, value bytea NOT NULL)");
        }
        catch (PostgresException error) when (error.SqlState is "23505" or "42P07")
        {
        }
    }

    /// <summary>Synced needs the server to flush at all (<c>fsync=on</c>); the session's synchronous_commit is read back too.</summary>
    private void CheckDurability(string rowName)
    {
        string expected = _durability == Durability.Synced ? "on" : "off";
        bool flushes = Scalar("SHOW fsync") as string == "on";
        bool atTier = Scalar("SHOW synchronous_commit") as string == expected;
        if (!atTier || (_durability == Durability.Synced && !flushes))
        {
            throw new DurabilityNotOfferedException(rowName, _durability, flushes ? DurabilityTiers.All : DurabilityTiers.Buffered);
        }
    }
}
