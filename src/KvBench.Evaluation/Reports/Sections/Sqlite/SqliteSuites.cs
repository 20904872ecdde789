using System.Globalization;

using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Sqlite;


namespace KvBench.Evaluation.Reports.Sections.Sqlite;

/// <summary>How long and how hard the SQLite suites run.</summary>
public sealed record SqliteSuiteSettings
{
    private static readonly IReadOnlyList<WorkloadSpec> s_readsAndWrites = [.. new SuiteSettings().SweepMixes.Where(mix => mix.Mix != OperationMix.HalfReads)];

    /// <summary>
    /// The row the suites measure: the strategy tables set it before its strategy rows (<see cref="StoreCatalog.WithStrategies"/>),
    /// the busy trap drives it and them, and the upsert forms and pragmas open it. Default: Sqlite_WAL.
    /// </summary>
    public string Row { get; init; } = SqliteRow.WalName;

    /// <summary>The strategy × threads sweep: every mix of the thread sweep on every strategy row.</summary>
    public SuiteSettings Strategies { get; init; } = new() { SweepThreads = [1, 2, 4, 8] };

    /// <summary>The busy trap.</summary>
    public BusyTrapSettings BusyTrap { get; init; } = new();

    /// <summary>The upsert forms and the cache_size / mmap_size settings on <c>Sqlite_WAL</c>: reads and overwrites at 10^6 records.</summary>
    public SuiteSettings Tuning { get; init; } = new() { Records = 1_000_000, SweepThreads = [1, 4], SweepMixes = s_readsAndWrites };

    /// <summary>
    /// The default evaluation's, within a minute on two cores: the sweep at 1 and 4 threads on 20,000 records, 1,000
    /// trapped writes, and the settings on 50,000 records at one thread, 0.15 s of warm-up and 0.35 s measured per run.
    /// Longer runs, more trapped writes or more records for the settings take this step past the minute on a loaded
    /// machine, hence these. Each run's timeline has five intervals of 70 ms, so that <c>kvbench compare</c> has a spread
    /// to judge a cell of two evaluations by, where one interval would give none.
    /// </summary>
    public static SqliteSuiteSettings Evaluation { get; } = new()
    {
        Strategies = new()
        {
            Records = 20_000,
            SweepThreads = [1, 4],
            Warmup = TimeSpan.FromMilliseconds(150),
            Duration = TimeSpan.FromMilliseconds(350),
            TimelineInterval = TimeSpan.FromMilliseconds(70),
        },
        BusyTrap = BusyTrapSettings.Evaluation,
        Tuning = new()
        {
            Records = 50_000,
            SweepThreads = [1],
            SweepMixes = s_readsAndWrites,
            Warmup = TimeSpan.FromMilliseconds(150),
            Duration = TimeSpan.FromMilliseconds(350),
            TimelineInterval = TimeSpan.FromMilliseconds(70),
        },
    };

    /// <summary>
    /// For tests: a thousand records, 1 and 2 threads. A strategy run measures 400 ms: Sqlite_AdoNet's writers meet in
    /// Microsoft.Data.Sqlite's busy retry, which sleeps 150 ms, so a window not much longer than one sleep can see none
    /// of its writes start and finish inside it and report no throughput at all.
    /// </summary>
    public static SqliteSuiteSettings Smoke { get; } = new()
    {
        Strategies = SuiteSettings.Smoke with { Records = 1_000, Warmup = TimeSpan.FromMilliseconds(30), Duration = TimeSpan.FromMilliseconds(400) },
        BusyTrap = BusyTrapSettings.Smoke,
        Tuning = SuiteSettings.Smoke with
        {
            Records = 1_000,
            SweepThreads = [1],
            SweepMixes = s_readsAndWrites,
            Warmup = TimeSpan.FromMilliseconds(30),
            Duration = TimeSpan.FromMilliseconds(120),
        },
    };
}

/// <summary>One way of opening <c>Sqlite_WAL</c>, as a line of a table.</summary>
/// <param name="Label">What the line says.</param>
/// <param name="Options">The options for a directory.</param>
public sealed record SqliteVariant(string Label, Func<string, SqliteStoreOptions> Options);

/// <summary>Everything the SQLite suites measured, with the settings that say which command reproduces each table.</summary>
/// <param name="Strategies">The strategy × threads sweep.</param>
/// <param name="BusyTrap">The busy trap.</param>
/// <param name="Upserts">The upsert forms, each line a form.</param>
/// <param name="Pragmas">The cache_size and mmap_size settings, each line a setting.</param>
/// <param name="Settings">How they ran.</param>
public sealed record SqliteResults(
    IReadOnlyList<WorkloadResult> Strategies,
    IReadOnlyList<BusyTrapResult> BusyTrap,
    IReadOnlyList<WorkloadResult> Upserts,
    IReadOnlyList<WorkloadResult> Pragmas,
    SqliteSuiteSettings Settings)
{
    /// <summary>What makes this no result: a wrong read or error in a run, or a row that let a busy error through or lost a write.</summary>
    public IReadOnlyList<string> Problems() =>
    [
        .. Strategies.Concat(Upserts).Concat(Pragmas).Select(run => run.Failure).OfType<string>(),
        .. Sqlite.BusyTrap.Problems(BusyTrap),
    ];
}

/// <summary>
/// SQLite's ways of use measured side by side: the strategy rows under the thread sweep, the busy trap, the upsert
/// forms and the cache_size / mmap_size settings, all through the workload runner and the catalog.
/// </summary>
public static class SqliteSuites
{
    /// <summary>
    /// <c>Sqlite_WAL</c> as it ships: the first line of both the upsert and the pragma table, measured once when both
    /// tables are (<see cref="All"/>).
    /// </summary>
    public static SqliteVariant Defaults { get; } =
        new("Sqlite_WAL's: ON CONFLICT DO UPDATE, cache_size 2,000 KiB per connection, mmap_size 0", directory =>
            new SqliteStoreOptions { Directory = directory });

    /// <summary>Both upsert statements.</summary>
    public static IReadOnlyList<SqliteVariant> UpsertForms { get; } =
    [
        Defaults,
        new("INSERT OR REPLACE", directory => new SqliteStoreOptions { Directory = directory, Upsert = SqliteUpsert.InsertOrReplace }),
    ];

    /// <summary>
    /// SQLite's defaults, then the cache and memory map that "Phase 4: Database Benchmark Results - HSQLDB vs SQLite"
    /// suggests (64 MB cache, 256 MB map), alone and together.
    /// </summary>
    public static IReadOnlyList<SqliteVariant> PragmaSettings { get; } =
    [
        Defaults,
        new("cache_size 64 MiB", directory => new SqliteStoreOptions { Directory = directory, CacheSizeKibibytes = 64 * 1024 }),
        new("mmap_size 256 MiB", directory => new SqliteStoreOptions { Directory = directory, MmapSizeBytes = 256L * 1024 * 1024 }),
        new("cache_size 64 MiB + mmap_size 256 MiB", directory =>
            new SqliteStoreOptions { Directory = directory, CacheSizeKibibytes = 64 * 1024, MmapSizeBytes = 256L * 1024 * 1024 }),
    ];

    /// <summary>Every suite with <paramref name="settings"/>, each in a folder of <paramref name="workDirectory"/>.</summary>
    public static SqliteResults All(SqliteSuiteSettings settings, string workDirectory, Action<string>? log = null, IProgress<LoadStatus>? loads = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        IReadOnlyList<WorkloadResult> tuning = Variants(
            settings.Row, UpsertForms.Union(PragmaSettings), settings.Tuning, Path.Combine(workDirectory, "tuning"), log, loads);
        return new SqliteResults(
            Strategies(settings.Row, settings.Strategies, Path.Combine(workDirectory, "strategies"), log, loads),
            BusyTrap.Run(StoreCatalog.WithStrategies(settings.Row), settings.BusyTrap, Path.Combine(workDirectory, "busy"), log),
            [.. tuning.Where(run => UpsertForms.Any(form => form.Label == run.Store))],
            [.. tuning.Where(run => PragmaSettings.Any(setting => setting.Label == run.Store))],
            settings);
    }

    /// <summary>The thread sweep of <paramref name="settings"/> on <paramref name="row"/> and every strategy row of it.</summary>
    public static IReadOnlyList<WorkloadResult> Strategies(
        string row, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null) =>
        WorkloadSuites.Threads(StoreCatalog.WithStrategies(row), settings, workDirectory, log, loads);

    /// <summary>The thread sweep of <paramref name="settings"/> on <paramref name="row"/> opened as each variant, each result named by its variant.</summary>
    public static IReadOnlyList<WorkloadResult> Variants(
        string row, IEnumerable<SqliteVariant> variants, SuiteSettings settings, string workDirectory, Action<string>? log = null,
        IProgress<LoadStatus>? loads = null) =>
    [
        .. variants.SelectMany(variant =>
            WorkloadSuites.Threads([row], settings, workDirectory, log, loads, variant.Options)
                .Select(result => result with { Store = variant.Label })),
    ];

    /// <summary>The <c>kvbench sqlite</c> command that measures <paramref name="suite"/> as <paramref name="settings"/> did.</summary>
    /// <param name="suite">strategies, busy, upsert or pragmas.</param>
    /// <param name="settings">The settings the table was measured with.</param>
    public static string Command(string suite, SqliteSuiteSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return suite switch
        {
            "busy" =>
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"kvbench sqlite busy --writes {settings.BusyTrap.Writes} --writers {settings.BusyTrap.Writers} " +
                        $"--pool {settings.BusyTrap.PoolConnections}"),
            "strategies" => SweepCommand(suite, settings.Strategies),
            "upsert" or "pragmas" => SweepCommand(suite, settings.Tuning),
            _ => throw new ArgumentException($"No SQLite suite is named '{suite}'; they are strategies, busy, upsert and pragmas.", nameof(suite)),
        };
    }

    private static string SweepCommand(string suite, SuiteSettings settings) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"kvbench sqlite {suite} --records {settings.Records} --thread-counts " +
                $"{string.Join(' ', settings.SweepThreads)} --warmup {settings.Warmup.TotalSeconds:0.###} --duration " +
                $"{settings.Duration.TotalSeconds:0.###}");
}
