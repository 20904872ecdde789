using KvBench.Core;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// <c>Sqlite_WAL</c> and <c>Sqlite_Scalar</c>: one writer connection behind a lock and a pool of read connections
/// (WAL). Writes queue in this process, so none meets another connection's write lock of this process (another
/// process's is waited for by <c>busy_timeout</c>); reads run in parallel on their own connections, and in WAL a reader
/// never blocks the writer nor the writer a reader.
/// </summary>
/// <remarks>
/// <para>
/// Chosen as the fastest strategy that is safe, on 2026-11-22 on this project's 2-core machine (shared with three other
/// builds, load average 13 to 17). Safe: in <c>kvbench sqlite busy</c> (5,000 read-await-write writes from 64
/// asynchronous writers) it let 0 busy errors reach the caller and lost 0 writes, as did every strategy row, while the
/// naive pool of 4 connections let 3,730 through and lost those 3,730 writes. Fastest: read-only at 4 threads on
/// 100,000 records, run alternately with one shared connection three times
/// (<c>kvbench run --store &lt;row&gt; --mix read=1 --distribution uniform --records 100000 --threads 4 --warmup 1
/// --duration 3 --load</c>), it read 200,593, 140,765 and 125,052 records/s against 66,058, 59,210 and 85,012: 2.1x
/// (median against median). Writes queue on one connection either way (13,112 against 12,102 writes/s at 1 thread in
/// <c>kvbench sqlite strategies --records 100000 --thread-counts 1 2 4 8 --warmup 0.5 --duration 2</c>, within that
/// run's noise). A connection per thread and a shared cache read as fast, but their writers meet inside SQLite:
/// in the same sweep their 50/50 updates at 8 threads had a p99 of 3.78 ms and 1.81 ms (busy_timeout's sleeps, the
/// shared cache's table locks), against 110 µs here. The rollback journal reads at a third of WAL's rate, and
/// Microsoft.Data.Sqlite opened per operation at about a third too.
/// </para>
/// <para>A thread's read connection lives until the store is disposed, also when the thread has ended.</para>
/// </remarks>
internal sealed class SqliteWriterReadersStore : SqliteStoreBase
{
    private readonly Lock _writeGate = new();
    private readonly SqlitePreparedStatements? _writer;

    // The pool of read connections is kept per thread: a read takes its thread's connection without a lock or an
    // allocation (a stack of idle readers behind a lock measured slower at 4 threads, and a ConcurrentStack allocated
    // a node per read), and never waits for another reader.
    private readonly ThreadLocal<SqlitePreparedStatements> _readers;

    public SqliteWriterReadersStore(string name, SqliteSchema schema, StoreOptions options)
        : base(name, schema, options)
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
