using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// A connection per thread, no lock of KvBench's: <c>Sqlite_PerThread</c> (WAL) and <c>Sqlite_SharedCache</c> (the same
/// connections sharing one page cache, <c>SQLITE_OPEN_SHAREDCACHE</c>), as the 2012 write-up "SQLite Performance" measured them.
/// </summary>
/// <remarks>
/// Reads run in parallel. Writers meet inside SQLite: a write that finds another connection's write lock waits in
/// <c>busy_timeout</c>, whose sleeps grow from 1 ms to 100 ms, so it is safe (no SQLITE_BUSY reaches the caller within
/// 10 s) but a contended write waits whole milliseconds for a lock held microseconds. With a shared cache, connections
/// lock the table against each other and get SQLITE_LOCKED, which no busy timeout covers: the statement is stepped
/// again (<see cref="SqlitePreparedStatements"/>). A connection lives until the store is disposed, also when its thread
/// has ended.
/// </remarks>
internal sealed class SqlitePerThreadStore : SqliteStoreBase
{
    private readonly ThreadLocal<SqlitePreparedStatements> _connections;

    public SqlitePerThreadStore(StoreRow row, SqliteSchema schema, StoreOptions options)
        : base(row, schema, options)
    {
        _connections = new(() => OpenStatements(createsSchema: false), trackAllValues: true)
        {
            // The opening thread's connection creates the schema before any other connection exists.
            Value = OpenStatements(createsSchema: true),
        };
    }

    protected override SqliteOperations Acquire(bool write) => _connections.Value!;

    protected override void Release(SqliteOperations operations, bool write)
    {
    }

    protected override void DisposeCore()
    {
        foreach (SqlitePreparedStatements connection in _connections.Values)
        {
            connection.Dispose();
        }

        _connections.Dispose();
    }
}
