using KvBench.Stores.Servers;

using MySqlConnector;

namespace KvBench.Stores.MariaDb;

/// <summary>
/// The SQLITE_BUSY trap's load through MySqlConnector's own pool, as its documentation shows it used: a data source of
/// at most a few connections (<c>MaximumPoolSize</c>), each write opened from it asynchronously as a transaction that
/// reads the key, lets the caller's async code run, writes the next value and commits. The MineSaga write-up comparing
/// SQLite with MySQL saw SQLite's pool fail under this load and MySQL's not; this is MySQL's side of that claim, on the
/// table of a <c>MariaDB</c> store.
/// </summary>
/// <remarks>
/// Not a row, like <see cref="Sqlite.SqliteNaiveConnectionPool"/>: the busy trap drives it beside the rows. A writer that
/// finds every connection taken waits for one (up to the connection timeout), as MySqlConnector's pool does.
/// </remarks>
public sealed class MySqlConnectorPool : IDisposable
{
    /// <summary>The row whose table the pool writes, on that row's server.</summary>
    public const string Row = MariaDbRow.RowName;

    private readonly MySqlDataSource _dataSource;
    private readonly SqlTableStatements _statements;

    /// <summary>
    /// A pool of at most <paramref name="connections"/> connections to the server at <paramref name="endpoint"/>, on the
    /// table of the <c>MariaDB</c> store that <paramref name="directory"/> names (which that row created).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="connections"/> is less than 1.</exception>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is neither <c>host:port</c> nor a MySqlConnector connection string.</exception>
    public MySqlConnectorPool(string endpoint, string directory, int connections)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(endpoint);
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        ArgumentOutOfRangeException.ThrowIfLessThan(connections, 1);
        MySqlConnectionStringBuilder builder = MariaDbStore.DatabaseConnectionString(endpoint);
        builder.MaximumPoolSize = (uint)connections;
        _dataSource = new MySqlDataSource(builder.ConnectionString);
        _statements = MariaDbStore.Statements(ServerStoreName.Of(directory), MariaDbUpsert.InsertOnDuplicateKeyUpdate);
    }

    /// <summary>
    /// Opens a connection from the pool, begins a transaction, reads <paramref name="key"/>, awaits
    /// <paramref name="next"/> of what it read (the caller's own asynchronous work, inside the transaction), writes it and commits.
    /// </summary>
    /// <exception cref="MySqlException">The server refused the transaction (a deadlock, a lock wait timeout, ...): nothing was written.</exception>
    public async Task ReadModifyWriteAsync(byte[] key, Func<byte[]?, Task<byte[]>> next)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(next);
        await using MySqlConnection connection = await _dataSource.OpenConnectionAsync().ConfigureAwait(false);
        await using MySqlTransaction transaction = await connection.BeginTransactionAsync().ConfigureAwait(false);
        byte[]? value;
        await using (var select = new MySqlCommand(_statements.Select, connection, transaction))
        {
            select.Parameters.Add(MariaDbStore.VarBinary(key));
            value = await select.ExecuteScalarAsync().ConfigureAwait(false) as byte[];
        }

        byte[] written = await next(value).ConfigureAwait(false);
        await using (var upsert = new MySqlCommand(_statements.Upsert, connection, transaction))
        {
            upsert.Parameters.Add(MariaDbStore.VarBinary(key));
            upsert.Parameters.Add(MariaDbStore.VarBinary(written));
            await upsert.ExecuteNonQueryAsync().ConfigureAwait(false);
        }

        await transaction.CommitAsync().ConfigureAwait(false);
    }

    public void Dispose() => _dataSource.Dispose();
}

