using System.Collections.Concurrent;

using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// One writer connection behind a lock and a pool of read connections (WAL): writes queue in this process, so none
/// meets another's write lock, and reads run in parallel on their own connections without waiting for the writer.
/// </summary>
/// <remarks>
/// The pool grows to the number of threads reading at once and keeps its connections until the store is disposed.
/// </remarks>
internal sealed class SqliteWriterReadersStore : SqliteStoreBase
{
    private readonly Lock _writeGate = new();
    private readonly SqlitePreparedStatements? _writer;
    private readonly ConcurrentStack<SqlitePreparedStatements> _idleReaders = new();
    private readonly List<SqlitePreparedStatements> _readers = [];

    public SqliteWriterReadersStore(string name, SqliteSchema schema, StoreOptions options)
        : base(name, schema, options)
    {
        // A read-only store has no writer; its first reader opens here, so an open that cannot read fails at once.
        if (Writable)
        {
            _writer = OpenStatements(createsSchema: true);
        }
        else
        {
            _idleReaders.Push(OpenReader());
        }
    }

    protected override SqliteOperations Acquire(bool write)
    {
        if (!write)
        {
            // Last in, first out: the most recently used connection has the warmest page cache.
            return _idleReaders.TryPop(out SqlitePreparedStatements? reader) ? reader : OpenReader();
        }

        _writeGate.Enter();
        try
        {
            // Checked under the lock: a call that waited for it while the store was disposed must not use a closed connection.
            ThrowIfDisposed();
        }
        catch
        {
            _writeGate.Exit();
            throw;
        }

        return _writer!;
    }

    protected override void Release(SqliteOperations operations, bool write)
    {
        if (write)
        {
            _writeGate.Exit();
        }
        else
        {
            _idleReaders.Push((SqlitePreparedStatements)operations);
        }
    }

    protected override void DisposeCore()
    {
        lock (_writeGate)
        {
            _writer?.Dispose();
        }

        lock (_readers)
        {
            foreach (SqlitePreparedStatements reader in _readers)
            {
                reader.Dispose();
            }
        }
    }

    private SqlitePreparedStatements OpenReader()
    {
        SqlitePreparedStatements reader = OpenStatements(createsSchema: false);
        lock (_readers)
        {
            _readers.Add(reader);
        }

        return reader;
    }
}
