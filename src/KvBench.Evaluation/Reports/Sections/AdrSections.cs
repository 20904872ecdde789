using KvBench.Evaluation.Reports.Sections.Capabilities;
using KvBench.Evaluation.Reports.Sections.Claims;
using KvBench.Evaluation.Reports.Sections.ClusterFaults;
using KvBench.Evaluation.Reports.Sections.Contention;
using KvBench.Evaluation.Reports.Sections.Crash;
using KvBench.Evaluation.Reports.Sections.PointOperations;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Evaluation.Reports.Sections.ServerKills;
using KvBench.Evaluation.Reports.Sections.Servers;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Evaluation.Reports.Sections.Survival;
using KvBench.Evaluation.Reports.Sections.Workloads;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>Every section of the ADR file, in the order the file prints them and the run measures them: the one list a new section joins.</summary>
public static class AdrSections
{
    /// <summary>
    /// The chapter of the durability tables: the capabilities' durability table opens it, and the crash, power-loss and
    /// survival sections continue it.
    /// </summary>
    public const string DurabilityChapter = "Durability";

    /// <summary>
    /// The chapter the server sections that come after the server rows' own tables write under: a heading of its own,
    /// since those tables end in a chapter per tier.
    /// </summary>
    public const string ServerChecksChapter = "Server rows: kills, cluster faults and published claims";

    /// <summary>A fresh instance of every section of the default file, with its settings for <paramref name="preset"/>.</summary>
    /// <param name="preset">How hard every section pushes.</param>
    /// <param name="servers">Whether the run includes the server rows: a section that measures rows of both kinds then adds them.</param>
    public static IReadOnlyList<AdrSection> Create(AdrPreset preset, bool servers = false) =>
    [
        new CapabilitiesSection(preset),
        new CrashRoundsSection(preset),
        new PowerLossSection(preset, servers),
        new SurvivalSection(),
        new BenchmarkSection(),
        new WorkloadSection(preset),
        new ContentionSection(preset),
        new SqliteSection(preset),
    ];

    /// <summary>
    /// A fresh instance of every section the server rows add (<c>--servers</c>), after those of <see cref="Create"/>: they
    /// install and start servers, so the default file leaves them out.
    /// </summary>
    public static IReadOnlyList<AdrSection> CreateServers(AdrPreset preset) =>
    [
        new ServerSection(preset),
        new ServerKillRoundsSection(preset),
        new ClusterFaultSection(preset),
        new PublishedClaimsSection(preset),
    ];

    /// <summary>
    /// A fresh instance of the section named <paramref name="name"/>, default or server, with its default settings: what a
    /// results file's section is read back into, its saved settings replacing these.
    /// </summary>
    /// <exception cref="ArgumentException">No section has that name.</exception>
    public static AdrSection Named(string name) =>
        Create(AdrPreset.Default).Concat(CreateServers(AdrPreset.Default)).FirstOrDefault(section => section.Name == name)
            ?? throw new ArgumentException($"No section is named '{name}'; the sections are {string.Join(", ", Names)}.", nameof(name));

    /// <summary>The names <c>kvbench adr --sections</c> takes, in the file's order: the default sections, then the server sections.</summary>
    public static IReadOnlyList<string> Names { get; } = [
        .. Create(AdrPreset.Default).Concat(CreateServers(AdrPreset.Default)).Select(section => section.Name)];
}
