using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// A store in a dqlite cluster: one table <c>kv_&lt;hash&gt;(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID</c> in the
/// cluster's database, read and written through go-dqlite's <c>dqlite</c> shell (<see cref="DqliteShell"/>), one shell
/// process per thread that calls at once, kept for the next call. A point operation is a line (one transaction on the
/// leader, committed once a majority has it); a scan is pages of range seeks on the primary key; a batch, or a value too
/// large for one line, is staged in the leader's temporary tables and written by one statement (<see cref="DqliteSql"/>).
/// Every read is answered by the leader from what it has applied, without asking the others: a leader cut off from them
/// that does not know it yet answers from what it has (dqlite has no read index: its documentation, "Consistency model"). Writes of one
/// store go one at a time: dqlite runs one write transaction at a time and refuses a second at once (SQLITE_BUSY), so
/// writers queue here instead of retrying into each other; a busy write (another process's) is still retried.
/// </summary>
internal sealed class DqliteStore : StoreAdapter
{
    /// <summary>
    /// Lines of a staged write sent at once: each batch of lines is answered before the next is sent, and has the
    /// request timeout of its own.
    /// </summary>
    private const int StagedLinesPerRequest = 256;

    private static long s_batches;

    private readonly ConcurrentBag<DqliteShell> _idle = [];
    private readonly Lock _writer = new();
    private readonly string _rowName;
    private readonly string[] _members;
    private readonly TimeSpan _timeout;
    private readonly string _table;
    private int _shellsStarted;

    public DqliteStore(StoreRow row, ServerStoreOptions options, string endpoint, string storeName)
        : base(row, options)
    {
        _rowName = row.Name;
        _members = [.. DqliteEndpoints.Parse(endpoint)];
        _timeout = (options as DqliteStoreOptions)?.RequestTimeout ?? DqliteStoreOptions.DefaultRequestTimeout;
        _table = storeName;
        try
        {
            if (options.Access == StoreAccess.ReadWrite)
            {
                Run([DqliteSql.CreateTable(_table)]);
            }
            else if (Run([DqliteSql.TableExists(_table)]).Count == 0)
            {
                throw new StoreNotFoundException(row.Name, options.Directory, options.Access);
            }
        }
        catch
        {
            DisposeCore();
            throw;
        }
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        PutManyCore([KeyValuePair.Create(key.ToArray(), value.ToArray())]);

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => TryGetThroughArray(key, destination);

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) =>
        Run([DqliteSql.Select(_table, key)]) switch
        {
            [] => null,
            [string row] => Convert.FromHexString(Row(row)),
            var rows => throw Unexpected(rows),
        };

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => Run([DqliteSql.Exists(_table, key)]).Count > 0;

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        string[] lines = DqliteSql.Delete(_table, key);
        lock (_writer)
        {
            return Count(Run(lines)) > 0;
        }
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>

        // No stored key starts with a prefix longer than the longest key; such a prefix would not fit a line either.
        prefix.Length > Capabilities.MaxKeyBytes ? [] : Scans.PrefixInRangePages(prefix, ReadRange);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadRange);

    /// <summary>
    /// One line when the whole batch fits one (one transaction, one commit); else staged, still one transaction. A key
    /// given twice is written once, with its last value, as one statement cannot upsert a key twice.
    /// </summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        var last = new Dictionary<string, int>(items.Count, StringComparer.Ordinal);
        for (int i = 0; i < items.Count; i++)
        {
            last[Convert.ToHexString(items[i].Key)] = i;
        }

        KeyValuePair<byte[], byte[]>[] distinct = [.. last.Values.Order().Select(index => items[index])];
        lock (_writer)
        {
            Write(distinct);
        }
    }

    /// <summary>Nothing to do: a write is acknowledged once a majority of members has it in its synced log.</summary>
    protected override void FlushCore()
    {
    }

    protected override void DisposeCore()
    {
        while (_idle.TryTake(out DqliteShell? shell))
        {
            shell.Dispose();
        }
    }

    private void Write(KeyValuePair<byte[], byte[]>[] distinct)
    {
        if (DqliteSql.Upsert(_table, distinct) is { } line)
        {
            Run([line]);
            return;
        }

        int written = Retrying(() =>
        {
            DqliteShell shell = Rent();
            try
            {
                List<string> rows = [];
                foreach (string[] lines in DqliteSql.StagedUpsert(_table, distinct, Interlocked.Increment(ref s_batches)).Chunk(StagedLinesPerRequest))
                {
                    rows = shell.Run(lines);
                }

                return Count(rows);
            }
            finally
            {
                Return(shell);
            }
        });
        if (written != distinct.Length)
        {
            throw new KeyValueStoreException(
                $"{Name} wrote none of a batch of {distinct.Length} items: {written} were staged on the leader's " +
                    $"connection when the batch was written (the shell changed connections on the way).");
        }
    }

    /// <summary>Runs <paramref name="lines"/> on an idle shell, or a new one when every shell is busy (<see cref="Retrying"/>).</summary>
    private List<string> Run(IReadOnlyList<string> lines) => Retrying(() =>
    {
        DqliteShell shell = Rent();
        try
        {
            return shell.Run(lines);
        }
        finally
        {
            Return(shell);
        }
    });

    /// <summary>
    /// Runs <paramref name="request"/> again, after a short pause, while it fails only because another
    /// connection's write transaction holds the database (SQLITE_BUSY, "database is locked"), until the request timeout
    /// has passed since the first try. dqlite does not wait for a lock: two writers at once on the leader, one gets
    /// SQLITE_BUSY at once, and go-dqlite's applications (LXD's query.Retry) retry it so; the failed line's transaction
    /// was rolled back, so nothing of it stays.
    /// </summary>
    private T Retrying<T>(Func<T> request)
    {
        long start = Stopwatch.GetTimestamp();
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return request();
            }
            catch (DqliteStatementException busy) when (busy.IsBusy && Stopwatch.GetElapsedTime(start) < _timeout)
            {
                // Doubling from 2 ms to 50 ms: writes of this store already queue on _writer, so what is busy here is another
                // process's write, which holds the leader's database for about one commit.
                Thread.Sleep(Math.Min(1 << Math.Min(attempt, 6), 50));
            }
        }
    }

    /// <summary>
    /// An idle shell, or a new one. A new shell lists the members starting at the next one each time: the shell tries
    /// them in order to find the leader, waiting out a long timeout on a member that takes its connection and answers
    /// nothing (a paused one), so the shells that replace ones killed on a paused leader do not all wait on the same
    /// member.
    /// </summary>
    private DqliteShell Rent()
    {
        if (_idle.TryTake(out DqliteShell? shell))
        {
            return shell;
        }

        int first = Interlocked.Increment(ref _shellsStarted) % _members.Length;
        return new DqliteShell(_rowName, [.. _members[first..], .. _members[..first]], DqliteRow.Database, _timeout);
    }

    private void Return(DqliteShell shell)
    {
        if (shell.IsBroken)
        {
            shell.Dispose();
        }
        else
        {
            _idle.Add(shell);
        }
    }

    private bool ReadRange(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int take = Math.Min(maxEntries, DqliteSql.PageRows);
        long valueBytes = 0;
        int start = page.Count;
        foreach (string row in Run([DqliteSql.Range(_table, lower, upper, take)]))
        {
            string entry = Row(row);
            int bar = entry.IndexOf('|', StringComparison.Ordinal);
            if (bar <= 0)
            {
                throw Unexpected([row]);
            }

            byte[] value = Convert.FromHexString(entry.AsSpan(bar + 1));
            valueBytes += value.Length;
            page.Add(new(Convert.FromHexString(entry.AsSpan(0, bar)), value));
        }

        // The join that fetches the values promises no order: the page's rows are the right ones, put in order here.
        page.Sort(start, page.Count - start, Comparer<KeyValuePair<byte[], byte[]>>.Create((a, b) => ByteKeys.Comparer.Compare(a.Key, b.Key)));
        return page.Count - start == take || valueBytes >= DqliteSql.PageValueBytes;
    }

    /// <summary>The one count a line of <see cref="DqliteSql.Delete"/> or <see cref="DqliteSql.StagedUpsert"/> printed.</summary>
    private int Count(List<string> rows) =>
        rows is [string row] && int.TryParse(Row(row), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int count)
            ? count
            : throw Unexpected(rows);

    /// <summary>A printed row without its leading "=", which every row the store selects starts with.</summary>
    private string Row(string row) => row.StartsWith('=') ? row[1..] : throw Unexpected([row]);

    private KeyValueStoreException Unexpected(IReadOnlyList<string> rows) =>
        new(
            $"{Name} read {rows.Count} unexpected lines from `{DqliteShell.Program}`: " +
                $"{string.Join(" / ", rows.Select(row => row.Length > 80 ? row[..80] + "..." : row))}");
}
