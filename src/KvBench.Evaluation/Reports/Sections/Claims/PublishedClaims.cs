using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.MariaDb;
using KvBench.Stores.Sqlite;


namespace KvBench.Evaluation.Reports.Sections.Claims;

/// <summary>How a batch's writes are issued.</summary>
public enum WriteMode
{
    /// <summary>One after another from one thread, as the write-up's synchronous runs.</summary>
    Synchronous,

    /// <summary>Shared by a pool of threads that each take the next write, as the write-up's asynchronous pool.</summary>
    Pool,
}

/// <summary>One measured cell: batches of writes through one statement of one row at one tier.</summary>
/// <param name="Row">The row.</param>
/// <param name="Statement">The upsert statement its writes ran.</param>
/// <param name="Durability">The tier.</param>
/// <param name="Sparse">Whether the batches are the write-up's sparse rounds of about 10 writes, not one of its volumes.</param>
/// <param name="WritesPerBatch">Writes in each batch.</param>
/// <param name="Mode">How a batch's writes were issued.</param>
/// <param name="Threads">Threads that issued them.</param>
/// <param name="Batches">The time each measured batch took, from its first write issued to its last acknowledged.</param>
public sealed record WriteCell(
    string Row, string Statement, Durability Durability, bool Sparse, int WritesPerBatch, WriteMode Mode, int Threads,
    IReadOnlyList<TimeSpan> Batches)
{
    /// <summary>The median batch.</summary>
    public TimeSpan Median => Batches.Order().ElementAt(Batches.Count / 2);

    /// <summary>Every batch together.</summary>
    public TimeSpan Total => Batches.Aggregate(TimeSpan.Zero, (sum, batch) => sum + batch);

    /// <summary>Writes per second over every batch.</summary>
    public double WritesPerSecond => WritesPerBatch * (double)Batches.Count / Total.TotalSeconds;
}

/// <summary>Everything the published write-up's claims were measured on.</summary>
/// <param name="Cells">Every cell, in the order measured.</param>
/// <param name="Problems">Write checks that failed: a key that did not hold the version written last.</param>
/// <param name="Settings">How they ran.</param>
public sealed record PublishedClaimResults(IReadOnlyList<WriteCell> Cells, IReadOnlyList<string> Problems, PublishedClaimSettings Settings);

/// <summary>
/// Measures what the MineSaga write-up comparing SQLite with MySQL measured, at equal durability: <c>Sqlite_WAL</c>
/// (synchronous=FULL at Synced, NORMAL at Buffered) against <c>MariaDB</c> (innodb_flush_log_at_trx_commit 1 and 2),
/// both through <see cref="IKeyValueStore"/>, each write an upsert of its own (no transaction around a batch, as the
/// write-up insisted) that overwrites a player record with its next version, so every write changes the bytes its key
/// holds. The MariaDB row's servers must be running (<see cref="StoreCatalog.StartHostsAsync"/>) or pointed at.
/// </summary>
public static class PublishedClaims
{
    /// <summary>The four rows and statements <paramref name="settings"/> compare.</summary>
    public static Contenders ContendersOf(PublishedClaimSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new Contenders(
            new(settings.SqliteRow, "INSERT ... ON CONFLICT DO UPDATE", options =>
                new SqliteStoreOptions(options) { Upsert = SqliteUpsert.OnConflictDoUpdate }),
            new(settings.SqliteRow, "INSERT OR REPLACE", options =>
                new SqliteStoreOptions(options) { Upsert = SqliteUpsert.InsertOrReplace }),
            new(settings.MySqlRow, "INSERT ... ON DUPLICATE KEY UPDATE", options =>
                new MariaDbStoreOptions(options) { Upsert = MariaDbUpsert.InsertOnDuplicateKeyUpdate }),
            new(settings.MySqlRow, "REPLACE", options =>
                new MariaDbStoreOptions(options) { Upsert = MariaDbUpsert.Replace }));
    }

    /// <summary>
    /// Measures every cell at every tier of <paramref name="settings"/>, each store in a directory of its own under
    /// <paramref name="workDirectory"/>. The stores a comparison sets side by side take turns batch by batch, in ABBA
    /// order, so what the machine does meanwhile falls on all of them alike.
    /// </summary>
    public static PublishedClaimResults Measure(PublishedClaimSettings settings, string workDirectory, Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        settings.Validate();
        Contenders contenders = ContendersOf(settings);
        var cells = new List<WriteCell>();
        var problems = new List<string>();
        foreach (Durability durability in settings.Tiers)
        {
            log?.Invoke($"Published claims at {durability}: Sqlite_WAL and MariaDB, each with its own upsert and with REPLACE...");
            var players = new List<Players>();
            try
            {
                foreach (Contender contender in new[] { contenders.Sqlite, contenders.MariaDb, contenders.SqliteReplace, contenders.MariaDbReplace })
                {
                    string form = contender == contenders.Sqlite || contender == contenders.MariaDb ? "own" : "replace";
                    players.Add(
                        new Players(
                            contender,
                            durability,
                            Path.Combine(workDirectory, $"{contender.Row}-{form}-{durability}".ToLowerInvariant()),
                            settings));
                }

                Players[] own = [players[0], players[1]];
                cells.AddRange(Interleaved(own, sparse: true, PublishedClaimSettings.RowsPerRound, WriteMode.Synchronous, settings.SparseRounds));
                foreach (int volume in settings.Volumes)
                {
                    cells.AddRange(Interleaved(players, sparse: false, volume, WriteMode.Synchronous, settings.Repeats));
                    cells.AddRange(Interleaved(own, sparse: false, volume, WriteMode.Pool, settings.Repeats));
                }

                problems.AddRange(players.Select(player => player.CheckWrites()).OfType<string>());
            }
            finally
            {
                players.ForEach(player => player.Dispose());
            }
        }

        return new PublishedClaimResults(cells, problems, settings);
    }

    /// <summary>One batch of warm-up each, then <paramref name="batches"/> measured batches each, the stores taking turns in ABBA order.</summary>
    private static IEnumerable<WriteCell> Interleaved(IReadOnlyList<Players> players, bool sparse, int writes, WriteMode mode, int batches)
    {
        int threads = mode == WriteMode.Pool ? players[0].PoolThreads : 1;
        var times = players.Select(_ => new TimeSpan[batches]).ToArray();
        foreach (Players player in players)
        {
            player.WriteBatch(writes, threads);
        }

        for (int batch = 0; batch < batches; batch++)
        {
            for (int turn = 0; turn < players.Count; turn++)
            {
                int which = batch % 2 == 0 ? turn : players.Count - 1 - turn;
                times[which][batch] = players[which].WriteBatch(writes, threads);
            }
        }

        return players.Select((player, which) => player.Cell(sparse, writes, mode, threads, times[which]));
    }

    /// <summary>A row and the upsert statement it writes with.</summary>
    /// <param name="Row">The row.</param>
    /// <param name="Statement">The statement, as the tables name it.</param>
    /// <param name="Options">The row's options that make it write with <paramref name="Statement"/>.</param>
    public sealed record Contender(string Row, string Statement, Func<StoreOptions, StoreOptions> Options);

    /// <summary>The rows and statements the claims compare.</summary>
    /// <param name="Sqlite">The row and statement the write-up's "SQLite" stands for: the store's own upsert.</param>
    /// <param name="SqliteReplace">SQLite's other upsert, beside MariaDB's REPLACE.</param>
    /// <param name="MariaDb">The row and statement the write-up's "MySQL" stands for: the statement the MariaDB row writes with.</param>
    /// <param name="MariaDbReplace">The write-up's REPLACE on MariaDB.</param>
    public sealed record Contenders(Contender Sqlite, Contender SqliteReplace, Contender MariaDb, Contender MariaDbReplace);

    /// <summary>
    /// One store of player records, preloaded, whose every write puts the next version of a record, and which knows the
    /// version each record holds.
    /// </summary>
    private sealed class Players : IDisposable
    {
        private readonly Contender _contender;
        private readonly Durability _durability;
        private readonly PublishedClaimSettings _settings;
        private readonly RecordSet _records;
        private readonly IKeyValueStore _store;
        private readonly ulong[] _versions;
        private long _next;
        private ulong _lastVersion;

        public Players(Contender contender, Durability durability, string directory, PublishedClaimSettings settings)
        {
            _contender = contender;
            _durability = durability;
            _settings = settings;
            _records = new RecordSet(settings.ValueBytes);
            _store = StoreCatalog.Open(contender.Row, contender.Options(new StoreOptions { Directory = directory, Durability = durability }));
            _records.Load(_store, settings.Records);
            _versions = new ulong[settings.Records];
        }

        /// <summary>The threads of the write-up's asynchronous pool.</summary>
        public int PoolThreads => _settings.PoolThreads;

        /// <summary>A cell of this store's batches.</summary>
        public WriteCell Cell(bool sparse, int writes, WriteMode mode, int threads, IReadOnlyList<TimeSpan> batches) =>
            new(_contender.Row, _contender.Statement, _durability, sparse, writes, mode, threads, batches);

        /// <summary>Every record read back: it must hold the version written last.</summary>
        public string? CheckWrites()
        {
            long wrong = 0;
            byte[] expected = new byte[_records.ValueBytes];
            for (long index = 0; index < _versions.Length; index++)
            {
                _records.WriteValue(index, _versions[index], expected);
                if (_store.Get(_records.Key(index)) is not { } value || !value.AsSpan().SequenceEqual(expected))
                {
                    wrong++;
                }
            }

            return wrong == 0
                ? null
                : string.Create(
                    CultureInfo.InvariantCulture,
                    $"Write check failed: {_contender.Row} with {_contender.Statement} at {_durability}: {wrong:N0} " +
                        $"of {_versions.Length:N0} records do not hold the version written last.");
        }

        public void Dispose() => _store.Dispose();

        /// <summary>
        /// The next <paramref name="writes"/> records (distinct: a batch is never larger than the records), each at a
        /// version never written before, built before the clock starts; then the writes, timed.
        /// </summary>
        public TimeSpan WriteBatch(int writes, int threads)
        {
            var keys = new byte[writes][];
            var values = new byte[writes][];
            for (int i = 0; i < writes; i++)
            {
                long index = _next++ % _versions.Length;
                ulong version = ++_lastVersion;
                keys[i] = _records.Key(index);
                values[i] = new byte[_records.ValueBytes];
                _records.WriteValue(index, version, values[i]);
                _versions[index] = version;
            }

            long started = Stopwatch.GetTimestamp();
            if (threads == 1)
            {
                for (int i = 0; i < writes; i++)
                {
                    _store.Put(keys[i], values[i]);
                }
            }
            else
            {
                Parallel.For(0, writes, new ParallelOptions { MaxDegreeOfParallelism = threads }, i => _store.Put(keys[i], values[i]));
            }

            return Stopwatch.GetElapsedTime(started);
        }
    }
}
