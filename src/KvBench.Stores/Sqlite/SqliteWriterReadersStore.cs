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
/// Chosen as the fastest strategy that is safe on 2026-11-22 on this project's 2-core machine, shared with three other
/// builds (load average 4 to 25 during the runs; /work/notes/issue-12.md has every table). Safe: under
/// <c>kvbench sqlite busy</c> (5,000 read-await-write writes from 64 asynchronous writers) it let 0 busy errors reach
/// the caller and lost 0 writes, as did every strategy row, while the naive pool of 4 connections let 3,738 through and
/// lost those 3,738 writes. Fast: read-only at 4 threads on 100,000 records, run three times alternately with one
/// shared connection and a connection per thread (<c>kvbench run --store &lt;row&gt; --mix read=1 --distribution uniform
/// --records 100000 --threads 4 --warmup 1 --duration 3 --load</c>), it read 432,703, 355,904 and 763,767 records/s
/// against 161,723, 198,508 and 198,267 for one shared connection (2.2x, median against median) and 389,729, 260,171
/// and 519,307 for a connection per thread. Writes queue on one connection, as before.
/// </para>
/// <para>
/// Why not a connection per thread, which reads as fast: its writers meet inside SQLite and wait in busy_timeout's
/// sleeps, with no queue, so nothing bounds a writer's wait below the 10 s timeout, after which SQLITE_BUSY reaches the
/// caller; in <c>kvbench sqlite strategies --records 100000 --thread-counts 1 2 4 8 --warmup 0.5 --duration 2</c> its
/// write-only p99 at 8 threads was 2.29 ms against 24.9 µs here. A shared cache adds table locks that no busy timeout
/// covers; the rollback journal read 93,000 to 111,000 records/s in that sweep against 228,000 to 413,000 here, and
/// Microsoft.Data.Sqlite opened per operation 108,000 to 156,000.
/// </para>
/// <para>
/// The price, in the same sweep: with reads and writes mixed at 8 threads on 2 cores, the writer competes for the CPU
/// with readers that no longer queue behind it (46,030 operations/s and an update p99 of 9.93 ms, against 71,970 and
/// 19.9 µs for one shared connection; a repeat gave 99.6 µs against 54.4 µs).
/// </para>
/// <para>
/// The read connections are one per thread: a read takes its thread's connection without a lock or an allocation and
/// never waits for another reader (a stack of idle readers behind a lock read 1.4x one shared connection at 4 threads;
/// a ConcurrentStack allocated a node per read). A thread's connection lives until the store is disposed.
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
