using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// One connection shared by every thread behind a lock: <c>Sqlite_OneConnection</c> (WAL), which was <c>Sqlite_WAL</c>
/// until the measurement in <see cref="SqliteWriterReadersStore"/>'s remarks, and <c>Sqlite_Rollback</c> (the same with
/// the rollback journal, where a second connection would wait for the writer's file locks anyway).
/// </summary>
/// <remarks>
/// No call ever meets another connection of this process, so no SQLITE_BUSY can come from inside it; the price is that
/// reads queue behind each other and behind every write although WAL lets readers run at once.
/// </remarks>
internal sealed class SqliteOneConnectionStore : SqliteStoreBase
{
    private readonly Lock _gate = new();
    private readonly SqlitePreparedStatements _connection;

    public SqliteOneConnectionStore(StoreRow row, SqliteSchema schema, StoreOptions options)
        : base(row, schema, options)
    {
        _connection = OpenStatements(createsSchema: true);
    }

    protected override SqliteOperations Acquire(bool write)
    {
        _gate.Enter();
        try
        {
            // Checked under the lock: a call that waited for it while the store was disposed must not use a closed connection.
            ThrowIfDisposed();
        }
        catch
        {
            _gate.Exit();
            throw;
        }

        return _connection;
    }

    protected override void Release(SqliteOperations operations, bool write) => _gate.Exit();

    protected override void DisposeCore()
    {
        lock (_gate)
        {
            _connection.Dispose();
        }
    }
}
