using KvBench.Core;

using Microsoft.Data.Sqlite;

using SQLitePCL;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// The SQLITE_BUSY trap of the MineSaga write-up comparing SQLite with MySQL, on purpose: a pool of several connections to a <c>Sqlite_WAL</c> store with no
/// busy handling (SQLite's default <c>busy_timeout</c> of 0), each write a deferred transaction that reads the key,
/// lets the caller's async code run, then writes. Two connections that read and then both try to write cannot both
/// win, and with nothing waiting the loser's SQLITE_BUSY reaches the caller, whose write is lost unless it retries.
/// </summary>
/// <remarks>
/// Not a row: it breaks the contract by design (a write may fail under concurrency). The busy-trap measurement drives
/// it beside the rows, which must give no busy error under the same load.
/// </remarks>
public sealed class SqliteNaiveConnectionPool : IDisposable
{
    /// <summary>The row whose store the pool's connections open: its blob table is the one they write.</summary>
    public const string Row = SqliteRow.WalName;

    private readonly SemaphoreSlim _available;
    private readonly Stack<SqlitePreparedStatements> _idle = new();
    private readonly List<SqlitePreparedStatements> _all = [];

    /// <summary>Opens <paramref name="connections"/> connections to the <c>Sqlite_WAL</c> store in <paramref name="directory"/>, which must exist.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="connections"/> is less than 1.</exception>
    /// <exception cref="StoreNotFoundException">The directory holds no SQLite store.</exception>
    public SqliteNaiveConnectionPool(string directory, int connections, Durability durability = Durability.Buffered)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        ArgumentOutOfRangeException.ThrowIfLessThan(connections, 1);
        if (!SqliteStoreBase.HoldsStore(directory))
        {
            throw new StoreNotFoundException(SqliteRow.WalName, directory, StoreAccess.ReadWrite);
        }

        var options = new SqliteStoreOptions { Directory = directory, Durability = durability, BusyTimeoutMilliseconds = 0 };
        for (int i = 0; i < connections; i++)
        {
            var connection = new SqlitePreparedStatements(
                Path.Combine(directory, SqliteStoreBase.FileName),
                new BlobKeySchema(),
                options,
                createsSchema: false);
            _all.Add(connection);
            _idle.Push(connection);
        }

        _available = new SemaphoreSlim(connections, connections);
    }

    /// <summary>Whether <paramref name="error"/> is SQLite's SQLITE_BUSY or SQLITE_LOCKED, or wraps one.</summary>
    public static bool IsBusyOrLocked(Exception? error)
    {
        for (; error is not null; error = error.InnerException)
        {
            if (error is SqliteException sqlite && (sqlite.SqliteErrorCode & 0xFF) is raw.SQLITE_BUSY or raw.SQLITE_LOCKED)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Waits for a connection, then <c>BEGIN</c> (deferred), reads <paramref name="key"/>, awaits <paramref name="next"/>
    /// of what it read (the caller's own asynchronous work, inside the transaction), writes it, <c>COMMIT</c>.
    /// </summary>
    /// <exception cref="SqliteException">SQLITE_BUSY (or another error): the transaction was rolled back, nothing was written.</exception>
    public async Task ReadModifyWriteAsync(byte[] key, Func<byte[]?, Task<byte[]>> next)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(next);
        await _available.WaitAsync().ConfigureAwait(false);
        SqlitePreparedStatements connection;
        lock (_idle)
        {
            connection = _idle.Pop();
        }

        try
        {
            connection.Execute("BEGIN DEFERRED");
            try
            {
                byte[] value = await next(connection.Get(key)).ConfigureAwait(false);
                connection.Upsert(key, value);
                connection.Execute("COMMIT");
            }
            catch
            {
                connection.RollbackIfOpen();
                throw;
            }
        }
        finally
        {
            lock (_idle)
            {
                _idle.Push(connection);
            }

            _available.Release();
        }
    }

    /// <summary>Closes every connection.</summary>
    public void Dispose()
    {
        foreach (SqlitePreparedStatements connection in _all)
        {
            connection.Dispose();
        }

        _available.Dispose();
    }
}
