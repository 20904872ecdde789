using System.Buffers;

using Microsoft.Data.Sqlite;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// One call's pooled <see cref="SqliteConnection"/>, opened when the call starts and given back to the pool by
/// <see cref="Dispose"/>, with a new <see cref="SqliteCommand"/> per statement: .NET code as most of it is written.
/// Busy and locked errors are the library's to handle (it sleeps and retries until the command timeout, 30 s).
/// </summary>
internal sealed class SqliteAdoNetCommands : SqliteOperations
{
    private const int ScanPageSize = 256;

    private readonly SqliteSchema _schema;
    private readonly SqliteStoreOptions _options;
    private readonly SqliteConnection _connection;

    /// <param name="connectionString">The store's pooled connection string.</param>
    /// <param name="schema">The table's layout.</param>
    /// <param name="options">The store's settings.</param>
    /// <param name="createsSchema">Whether this connection sets the journal and creates the table (the store's first).</param>
    public SqliteAdoNetCommands(string connectionString, SqliteSchema schema, SqliteStoreOptions options, bool createsSchema)
    {
        _schema = schema;
        _options = options;
        _connection = new SqliteConnection(connectionString);
        _connection.Open();

        // Run on every open: a connection from the pool may be new, and synchronous is a setting of the connection.
        foreach (string pragma in SqliteStoreBase.ConnectionPragmas(options, createsSchema))
        {
            using SqliteCommand command = Command(pragma);
            command.ExecuteNonQuery();
        }

        if (createsSchema)
        {
            using SqliteCommand create = Command(schema.CreateTable);
            create.ExecuteNonQuery();
        }
    }

    public override void Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using SqliteCommand command = KeyCommand(_schema.UpsertWith(_options.Upsert), key);
        command.Parameters.Add($"?{_schema.KeyParameterCount + 1}", SqliteType.Blob).Value = value.ToArray();
        command.ExecuteNonQuery();
    }

    public override void UpsertAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        // Microsoft.Data.Sqlite begins with BEGIN IMMEDIATE unless asked for a deferred transaction.
        using SqliteTransaction transaction = _connection.BeginTransaction();
        foreach (KeyValuePair<byte[], byte[]> item in items)
        {
            Upsert(item.Key, item.Value);
        }

        transaction.Commit();
    }

    public override bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        if (Get(key) is not { } value)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    public override byte[]? Get(ReadOnlySpan<byte> key)
    {
        using SqliteCommand command = KeyCommand(_schema.SelectValue, key);
        return command.ExecuteScalar() as byte[];
    }

    public override bool ContainsKey(ReadOnlySpan<byte> key)
    {
        using SqliteCommand command = KeyCommand(_schema.SelectExists, key);
        return command.ExecuteScalar() is not null;
    }

    public override bool Delete(ReadOnlySpan<byte> key)
    {
        using SqliteCommand command = KeyCommand(_schema.DeleteKey, key);
        return command.ExecuteNonQuery() > 0;
    }

    public override bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int keyParameters = _schema.KeyParameterCount;
        int pageSize = Math.Min(ScanPageSize, maxEntries);
        using SqliteCommand command = KeyCommand(upper is null ? _schema.ScanFrom : _schema.ScanRange, lower);
        if (upper is not null)
        {
            _schema.AddKey(command.Parameters, keyParameters + 1, upper);
        }

        command.Parameters.Add($"?{_schema.PageSizeParameter(upper is not null)}", SqliteType.Integer).Value = pageSize;
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            page.Add(new(_schema.ReadKey(reader), reader.GetFieldValue<byte[]>(keyParameters)));
        }

        return page.Count == pageSize;
    }

    public override void Dispose() => _connection.Dispose();

    private SqliteCommand KeyCommand(string sql, ReadOnlySpan<byte> key)
    {
        SqliteCommand command = Command(sql);
        _schema.AddKey(command.Parameters, 1, key);
        return command;
    }

    private SqliteCommand Command(string sql)
    {
        SqliteCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }
}
