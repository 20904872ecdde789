using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// <c>Sqlite_WAL</c> and <c>Sqlite_Scalar</c>: one writer connection behind a lock and a pool of read connections, one
/// per thread (WAL). Writes queue in this process, so none meets another connection's write lock of this process (another
/// process's is waited for by <c>busy_timeout</c>); reads run in parallel on their own connections, and in WAL a reader
/// never blocks the writer nor the writer a reader.
/// </summary>
/// <remarks>
/// <para>
/// Chosen as the fastest strategy that is safe, by the SQLite suites (<c>kvbench sqlite</c>), whose tables the
/// evaluation writes. Safe: under <c>kvbench sqlite busy</c> (read-await-write writes from many asynchronous writers)
/// it lets no busy error reach the caller and loses no write, as every strategy row, while the naive pool of 4
/// connections lets busy errors through and loses those writes. Fast: read-only at 4 threads (<c>kvbench run --store
/// &lt;row&gt; --mix read=1 --distribution uniform --records 100000 --threads 4 --warmup 1 --duration 3 --load</c>) it
/// reads far more records a second than one shared connection, and as many as a connection per thread. Writes queue
/// on one connection, as before.
/// </para>
/// <para>
/// Why not a connection per thread, which reads as fast: its writers meet inside SQLite and wait in busy_timeout's
/// sleeps, with no queue, so nothing bounds a writer's wait below the 10 s timeout, after which SQLITE_BUSY reaches the
/// caller; in <c>kvbench sqlite strategies --records 100000 --thread-counts 1 2 4 8 --warmup 0.5 --duration 2</c> its
/// write-only p99 at 8 threads is milliseconds where this strategy's is microseconds. A shared cache adds table locks
/// that no busy timeout covers; the rollback journal, and Microsoft.Data.Sqlite opened per operation, read well below
/// this strategy in that sweep.
/// </para>
/// <para>
/// The price, in the same sweep: with reads and writes mixed at more threads than cores, the writer competes for the
/// CPU with readers that no longer queue behind it, so mixed throughput and the update p99 can fall behind one shared
/// connection's.
/// </para>
/// <para>
/// The read connections are one per thread: a read takes its thread's connection without a lock or an allocation and
/// never waits for another reader (a stack of idle readers behind a lock read slower, every read taking the lock; a
/// ConcurrentStack allocated a node per read). A thread's connection lives until the store is disposed.
/// </para>
/// </remarks>
internal sealed class SqliteWriterReadersStore : SqliteStoreBase, ISqliteCommitClock
{
    private readonly Lock _writeGate = new();
    private readonly SqlitePreparedStatements? _writer;

    // The pool of read connections, one per thread (the remarks say why).
    private readonly ThreadLocal<SqlitePreparedStatements> _readers;

    public SqliteWriterReadersStore(StoreRow row, SqliteSchema schema, StoreOptions options)
        : base(row, schema, options)
    {
        _readers = new(() => OpenStatements(createsSchema: false), trackAllValues: true);

        // A read-only store has no writer; its first reader opens here, so an open that cannot read fails at once.
        if (Writable)
        {
            _writer = OpenStatements(createsSchema: true);
        }
        else
        {
            _ = _readers.Value;
        }
    }

    /// <summary>The writer's last commit (the default for a read-only store); taken under the write lock, so never half-written.</summary>
    public SqliteCommitTiming LastCommit
    {
        get
        {
            lock (_writeGate)
            {
                return _writer?.LastCommit ?? default;
            }
        }
    }

    /// <summary>The writer's <c>wal_autocheckpoint</c>, read when it opened; 0 for a read-only store.</summary>
    public int AutoCheckpointFrames => _writer?.AutoCheckpointFrames ?? 0;

    protected override SqliteOperations Acquire(bool write)
    {
        if (!write)
        {
            return _readers.Value!;
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
    }

    protected override void DisposeCore()
    {
        lock (_writeGate)
        {
            _writer?.Dispose();
        }

        foreach (SqlitePreparedStatements reader in _readers.Values)
        {
            reader.Dispose();
        }

        _readers.Dispose();
    }
}
