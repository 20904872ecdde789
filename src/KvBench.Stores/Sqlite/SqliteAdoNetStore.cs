using KvBench.Core;

using Microsoft.Data.Sqlite;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// <c>Sqlite_AdoNet</c>: the idiomatic Microsoft.Data.Sqlite way, a pooled <see cref="SqliteConnection"/> opened per
/// operation with a new <see cref="SqliteCommand"/>, and the library's own busy handling (<see cref="SqliteAdoNetCommands"/>).
/// </summary>
/// <remarks>
/// No lock of KvBench's: every call takes a connection from Microsoft.Data.Sqlite's pool (one per concurrent call) and
/// writers meet inside SQLite. The library does not set <c>busy_timeout</c>; a busy statement is retried after a
/// 150 ms sleep until the 30 s command timeout, so a contended write waits in steps of 150 ms.
/// </remarks>
internal sealed class SqliteAdoNetStore : SqliteStoreBase
{
    private readonly string _connectionString;

    public SqliteAdoNetStore(StoreRow row, SqliteSchema schema, StoreOptions options)
        : base(row, schema, options)
    {
        _connectionString = ConnectionString(DatabasePath, Options, pooling: true);
        using var first = new SqliteAdoNetCommands(_connectionString, Schema, Options, createsSchema: Writable);
    }

    protected override SqliteOperations Acquire(bool write) => new SqliteAdoNetCommands(_connectionString, Schema, Options, createsSchema: false);

    protected override void Release(SqliteOperations operations, bool write) => operations.Dispose();

    // The pool keeps the file open after every connection is disposed; a store that is closed must let go of its file.
    protected override void DisposeCore()
    {
        using var connection = new SqliteConnection(_connectionString);
        SqliteConnection.ClearPool(connection);
    }
}
