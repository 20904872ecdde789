using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.MariaDb;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;


namespace KvBench.Evaluation.Reports.Sections.Sqlite;

/// <summary>How hard the busy trap pushes.</summary>
public sealed record BusyTrapSettings
{
    /// <summary>Writes, each to a record of its own (so a lost write is one whose key still holds its old bytes).</summary>
    public int Writes { get; init; } = 5_000;

    /// <summary>Asynchronous writers in flight at once.</summary>
    public int Writers { get; init; } = 64;

    /// <summary>Connections of the naive pool.</summary>
    public int PoolConnections { get; init; } = 4;

    /// <summary>
    /// What a writer awaits between reading a record and writing it, standing for the application's own asynchronous
    /// work (a timer here, so the writers interleave however the thread pool schedules them). Default 1 ms.
    /// </summary>
    public TimeSpan AwaitBetweenReadAndWrite { get; init; } = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// The default evaluation's: 1,000 writes, a few seconds for every target together (the pool of one alone takes
    /// over a second: its writes queue, each holding the connection through its 1 ms await).
    /// </summary>
    public static BusyTrapSettings Evaluation { get; } = new() { Writes = 1_000 };

    /// <summary>For tests: a few hundred writes.</summary>
    public static BusyTrapSettings Smoke { get; } = new() { Writes = 400, Writers = 16 };
}

/// <summary>One target of the busy trap: what reached the caller and what was lost.</summary>
/// <param name="Target">A row name, or the naive pool and its size.</param>
/// <param name="Usage">How the target was used, in a few words.</param>
/// <param name="Writes">Writes issued.</param>
/// <param name="Writers">Asynchronous writers in flight at once.</param>
/// <param name="BusyErrors">SQLITE_BUSY or SQLITE_LOCKED errors that reached the caller.</param>
/// <param name="OtherErrors">Any other error that reached the caller.</param>
/// <param name="LostWrites">Writes whose key does not hold the value written afterwards (failed ones included).</param>
/// <param name="LostAcknowledgedWrites">Of those, writes that had returned without an error.</param>
/// <param name="SlowestWriteMilliseconds">The longest a write took, from its start (waiting for a connection included) to its return or error.</param>
/// <param name="P99WriteMilliseconds">The 99th percentile of the same.</param>
/// <param name="WritesPerSecond">Writes issued per second of the whole run.</param>
/// <param name="FirstError">The first error that was not busy or locked, or <see langword="null"/>.</param>
public sealed record BusyTrapResult(
    string Target,
    string Usage,
    int Writes,
    int Writers,
    int BusyErrors,
    int OtherErrors,
    int LostWrites,
    int LostAcknowledgedWrites,
    double SlowestWriteMilliseconds,
    double P99WriteMilliseconds,
    double WritesPerSecond,
    string? FirstError)
{
    /// <summary>No error reached the caller and nothing was lost.</summary>
    public bool Safe => BusyErrors == 0 && OtherErrors == 0 && LostWrites == 0;
}

/// <summary>
/// The SQLITE_BUSY trap of the MineSaga write-up comparing SQLite with MySQL, reproduced: many asynchronous writers, each reading a record and then writing its
/// next version, through the naive pool (<see cref="SqliteNaiveConnectionPool"/>: several connections, deferred
/// transactions, no busy handling) and through rows of the catalog under the same load (Get, the writer's await, Put).
/// </summary>
public static class BusyTrap
{
    /// <summary>
    /// The naive pool of <see cref="BusyTrapSettings.PoolConnections"/>, the naive pool of one (the fix the MineSaga
    /// write-up settled on), then each of <paramref name="rows"/>.
    /// </summary>
    public static IReadOnlyList<BusyTrapResult> Run(IEnumerable<string> rows, BusyTrapSettings settings, string workDirectory, Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        List<BusyTrapResult> results = [NaivePool(settings, settings.PoolConnections, workDirectory)];
        if (settings.PoolConnections != 1)
        {
            results.Add(NaivePool(settings, 1, workDirectory));
        }

        results.AddRange(rows.Select(row => Row(row, settings, workDirectory)));
        foreach (BusyTrapResult result in results)
        {
            log?.Invoke(
                $"busy trap, {result.Target}: {result.BusyErrors:N0} busy errors, {result.LostWrites:N0} lost " +
                    $"writes, slowest write {result.SlowestWriteMilliseconds:N1} ms");
        }

        return results;
    }

    /// <summary>
    /// What makes busy-trap results no result: a row of the catalog that let an error reach the caller or lost a write,
    /// or any target that lost a write it had acknowledged. A naive usage's errors are what it is measured for.
    /// </summary>
    public static IEnumerable<string> Problems(IEnumerable<BusyTrapResult> results) =>
        results.Where(result => StoreCatalog.AllNames.Contains(result.Target) ? !result.Safe : result.LostAcknowledgedWrites > 0)
            .Select(result =>
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"busy trap: {result.Target} let {result.BusyErrors + result.OtherErrors:N0} errors reach the " +
                        $"caller and lost {result.LostWrites:N0} writes, {result.LostAcknowledgedWrites:N0} of them " +
                        $"acknowledged{(result.FirstError is null ? string.Empty : $" (first: {result.FirstError})")}" +
                        $"."));

    /// <summary>The naive pool of <paramref name="connections"/> on a <c>Sqlite_WAL</c> store loaded with the records.</summary>
    public static BusyTrapResult NaivePool(BusyTrapSettings settings, int connections, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return InDirectory(Path.Combine(workDirectory, $"naive-pool-{connections}"), directory =>
        {
            VersionedRecords records = LoadRecords(SqliteNaiveConnectionPool.Row, directory, settings);
            (BusyTrapResult Result, bool[] Acknowledged) run;
            using (var pool = new SqliteNaiveConnectionPool(directory, connections))
            {
                run = Drive(
                    $"naive pool of {connections}",
                    $"{connections} connection{(connections == 1 ? string.Empty : "s")}, BEGIN DEFERRED, no busy_timeout",
                    records,
                    settings,
                    pool.ReadModifyWriteAsync);
            }

            using IKeyValueStore store = StoreCatalog.Open(SqliteNaiveConnectionPool.Row, new StoreOptions { Directory = directory });
            return WithLosses(run, records, store);
        });
    }

    /// <summary>
    /// The same load through MySqlConnector's own pool of <paramref name="connections"/> on the <c>MariaDB</c> row's
    /// server at <paramref name="endpoint"/> (<see cref="MySqlConnectorPool"/>), its table loaded and read back through the row.
    /// </summary>
    public static BusyTrapResult ConnectorPool(BusyTrapSettings settings, int connections, string endpoint, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return InDirectory(Path.Combine(workDirectory, $"mysqlconnector-pool-{connections}"), directory =>
        {
            var options = new ServerStoreOptions { Directory = directory, Endpoint = endpoint };
            VersionedRecords records = LoadRecords(MySqlConnectorPool.Row, options, settings);
            (BusyTrapResult Result, bool[] Acknowledged) run;
            using (var pool = new MySqlConnectorPool(endpoint, directory, connections))
            {
                run = Drive(
                    $"MySqlConnector pool of {connections}",
                    $"MaximumPoolSize={connections}, a transaction per write, async calls",
                    records,
                    settings,
                    pool.ReadModifyWriteAsync);
            }

            using IKeyValueStore store = StoreCatalog.Open(MySqlConnectorPool.Row, options);
            return WithLosses(run, records, store);
        });
    }

    /// <summary>Row <paramref name="row"/> under the same load: Get, the writer's await, then Put, each write's own.</summary>
    public static BusyTrapResult Row(string row, BusyTrapSettings settings, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return InDirectory(Path.Combine(workDirectory, row), directory =>
        {
            VersionedRecords records = LoadRecords(row, directory, settings);
            using IKeyValueStore store = StoreCatalog.Open(row, new StoreOptions { Directory = directory });
            (BusyTrapResult Result, bool[] Acknowledged) run = Drive(row, "Get, await, Put through IKeyValueStore", records, settings, async (key, next) =>
            {
                byte[] value = await next(store.Get(key)).ConfigureAwait(false);
                store.Put(key, value);
            });
            return WithLosses(run, records, store);
        });
    }

    private static VersionedRecords LoadRecords(string row, string directory, BusyTrapSettings settings) =>
        LoadRecords(row, new StoreOptions { Directory = directory }, settings);

    private static VersionedRecords LoadRecords(string row, StoreOptions options, BusyTrapSettings settings)
    {
        var recordSet = new RecordSet(WorkloadSpec.DefaultValueBytes);
        using (IKeyValueStore store = StoreCatalog.Open(row, options))
        {
            recordSet.Load(store, settings.Writes);
        }

        return new VersionedRecords(recordSet, settings.Writes);
    }

    /// <summary>
    /// Runs every write through <paramref name="write"/> from <see cref="BusyTrapSettings.Writers"/> asynchronous
    /// writers; losses are counted after.
    /// </summary>
    /// <returns>The result without losses, and which writes returned without an error.</returns>
    private static (BusyTrapResult Result, bool[] Acknowledged) Drive(
        string target, string usage, VersionedRecords records, BusyTrapSettings settings, Func<byte[], Func<byte[]?,
        Task<byte[]>>, Task> write)
    {
        bool[] acknowledged = new bool[settings.Writes];
        int next = -1;
        int busy = 0;
        int other = 0;
        string? firstError = null;
        long started = Stopwatch.GetTimestamp();
        LatencyHistogram[] histograms = [.. Enumerable.Range(0, settings.Writers).Select(_ => new LatencyHistogram())];
        Task[] writers = [.. histograms.Select(histogram => Task.Run(async () =>
        {
            for (int index; (index = Interlocked.Increment(ref next)) < settings.Writes;)
            {
                long start = Stopwatch.GetTimestamp();
                try
                {
                    // The next version is made once the write has read: each record is written by one writer, once.
                    await write(records.Key(index), async _ =>
                    {
                        await Task.Delay(settings.AwaitBetweenReadAndWrite).ConfigureAwait(false);
                        return records.Rewrite(index);
                    }).ConfigureAwait(false);
                    acknowledged[index] = true;
                }
                catch (Exception error) when (SqliteNaiveConnectionPool.IsBusyOrLocked(error))
                {
                    Interlocked.Increment(ref busy);
                }
                catch (Exception error) when (error is not OutOfMemoryException)
                {
                    // Counted, not thrown: a write that fails otherwise is still a write the caller lost.
                    Interlocked.Increment(ref other);
                    Interlocked.CompareExchange(ref firstError, $"{error.GetType().Name}: {error.Message}", null);
                }

                histogram.Record((long)Stopwatch.GetElapsedTime(start).TotalNanoseconds);
            }
        }))];
        Task.WaitAll(writers);
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        var merged = new LatencyHistogram();
        foreach (LatencyHistogram histogram in histograms)
        {
            merged.Add(histogram);
        }

        var result = new BusyTrapResult(
            target, usage, settings.Writes, settings.Writers, busy, other, 0, 0, merged.Max / 1e6,
            merged.ValueAt(99) / 1e6, settings.Writes / seconds, firstError);
        return (result, acknowledged);
    }

    /// <summary>
    /// Reads every record back: a key without the version its write made is a lost write, and a lost acknowledged one
    /// when that write had returned.
    /// </summary>
    private static BusyTrapResult WithLosses((BusyTrapResult Result, bool[] Acknowledged) run, VersionedRecords records, IKeyValueStore store)
    {
        int lost = 0;
        int lostAcknowledged = 0;
        for (int index = 0; index < records.Count; index++)
        {
            if (store.Get(records.Key(index)) is { } value && value.AsSpan().SequenceEqual(records.Value(index)))
            {
                continue;
            }

            lost++;
            lostAcknowledged += run.Acknowledged[index] ? 1 : 0;
        }

        return run.Result with { LostWrites = lost, LostAcknowledgedWrites = lostAcknowledged };
    }

    private static BusyTrapResult InDirectory(string directory, Func<string, BusyTrapResult> run)
    {
        try
        {
            return run(directory);
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }
}
