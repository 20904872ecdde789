using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>How the server section measures: the workload suites' lengths, the tier, the embedded rows beside the servers, the round trips timed.</summary>
public sealed record ServerSectionSettings
{
    /// <summary>
    /// Records, thread counts and run lengths of YCSB, the thread sweep and the scale sweep. Default:
    /// <see cref="SuiteSettings.Evaluation"/>.
    /// </summary>
    public SuiteSettings Suites { get; init; } = SuiteSettings.Evaluation;

    /// <summary>
    /// The tiers every row runs at, each in turn, the suites and the tools loading afresh at each. Default:
    /// <see cref="Durability.Synced"/>, the servers' own default (PostgreSQL's synchronous_commit=on, InnoDB's flush at
    /// every commit; Redis reaches it with appendfsync always), then <see cref="Durability.Buffered"/>, where a write
    /// does not wait for the device and what the client and the network cost shows.
    /// </summary>
    public IReadOnlyList<Durability> Tiers { get; init; } = [Durability.Synced, Durability.Buffered];

    /// <summary>
    /// The embedded rows the server rows are measured beside. Default: Sqlite_WAL and LMDB, and FASTER, whose
    /// successor engine Garnet serves, for the line that sets the two side by side (<see cref="LineageComparison"/>).
    /// </summary>
    public IReadOnlyList<string> EmbeddedRows { get; init; } = StoreCatalog.BesideServers;

    /// <summary>Round trips timed per server row, after a tenth as many of warm-up. Default: 2,000.</summary>
    public int RoundTrips { get; init; } = 2_000;

    /// <summary>The settings for <paramref name="preset"/>: the workload section's suites at the same preset.</summary>
    public static ServerSectionSettings For(AdrPreset preset) => preset.Choose(
        quick: new ServerSectionSettings { Suites = SuiteSettings.Smoke, RoundTrips = 500 },
        evaluation: new ServerSectionSettings(),
        full: new ServerSectionSettings { Suites = new SuiteSettings(), RoundTrips = 20_000 });
}
