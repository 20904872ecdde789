using KvBench.Core;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Stores.MariaDb;


namespace KvBench.Evaluation.Reports.Sections.Claims;

/// <summary>How the claims of the MineSaga write-up comparing SQLite with MySQL are measured (<see cref="PublishedClaims"/>).</summary>
public sealed record PublishedClaimSettings
{
    /// <summary>The write-up's rounds of sparse single writes.</summary>
    public const int WriteUpRounds = 9_000;

    /// <summary>The write-up's rows per round ("around 10 entries").</summary>
    public const int RowsPerRound = 10;

    /// <summary>The SQLite row that stands for the write-up's "SQLite", opened with its upsert statements. Default: Sqlite_WAL, as it ships.</summary>
    public string SqliteRow { get; init; } = Stores.Sqlite.SqliteRow.WalName;

    /// <summary>The MariaDB row that stands for the write-up's "MySQL", on KvBench's own server. Default: MariaDB.</summary>
    public string MySqlRow { get; init; } = MariaDbRow.RowName;

    /// <summary>
    /// The write-up's rounds are divided by this. Default: 30 (300 rounds, 3,000 writes per row and tier), which keeps
    /// the section within about a minute where a synced write takes a few milliseconds; 1 runs all 9,000.
    /// </summary>
    public int RoundsDivisor { get; init; } = 30;

    /// <summary>The sparse rounds run: <see cref="WriteUpRounds"/> / <see cref="RoundsDivisor"/>.</summary>
    public int SparseRounds => Math.Max(1, WriteUpRounds / RoundsDivisor);

    /// <summary>The write-up's two volumes, writes per batch. Default: 30 and 300.</summary>
    public IReadOnlyList<int> Volumes { get; init; } = [30, 300];

    /// <summary>The write-up's asynchronous pool: that many threads share a batch's writes. Default: 4.</summary>
    public int PoolThreads { get; init; } = 4;

    /// <summary>Measured batches per volume, after one batch of warm-up; the median is reported. Default: 5.</summary>
    public int Repeats { get; init; } = 5;

    /// <summary>
    /// Player records each store holds; a write overwrites one with its next version. Default: 1,000, more than the
    /// largest volume, so a batch never writes one key twice.
    /// </summary>
    public int Records { get; init; } = 1_000;

    /// <summary>The length of every value. Default: 128 bytes, as KvBench's other tables.</summary>
    public int ValueBytes { get; init; } = 128;

    /// <summary>The tiers, each compared on both stores alike. Default: Synced, then Buffered.</summary>
    public IReadOnlyList<Durability> Tiers { get; init; } = [Durability.Synced, Durability.Buffered];

    /// <summary>
    /// The SQLITE_BUSY trap's load, through SQLite's naive pool and MySqlConnector's pool of as many connections, and
    /// through both rows. Default: the SQLite section's (1,000 writes from 64 writers, a pool of 4).
    /// </summary>
    public BusyTrapSettings BusyTrap { get; init; } = BusyTrapSettings.Evaluation;

    /// <summary>For tests and <c>--quick</c>: the rounds divided by 300 (30 rounds), two batches per volume, a smaller busy trap.</summary>
    public static PublishedClaimSettings Smoke { get; } = new() { RoundsDivisor = 300, Repeats = 2, BusyTrap = BusyTrapSettings.Smoke };

    /// <summary>With <c>--full</c>: the write-up's 9,000 rounds, nine batches per volume.</summary>
    public static PublishedClaimSettings Full { get; } = new() { RoundsDivisor = 1, Repeats = 9 };

    /// <summary>Throws when a setting cannot run.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A count is not positive, or a volume is larger than <see cref="Records"/>.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(RoundsDivisor);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(PoolThreads);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Repeats);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ValueBytes);
        if (Volumes.Count == 0 || Volumes.Any(volume => volume <= 0 || volume > Records))
        {
            throw new ArgumentOutOfRangeException(
                nameof(Volumes),
                $"Every volume must be between 1 and the {Records:N0} records, so a batch writes each key once; they " +
                    $"are {string.Join(", ", Volumes)}.");
        }
    }
}
