namespace KvBench.Evaluation.Reports.Sections;

/// <summary>Every section of the ADR file, in the order the file prints them and the run measures them: the one list a new section joins.</summary>
public static class AdrSections
{
    /// <summary>A fresh instance of every section, with its settings for <paramref name="preset"/>.</summary>
    public static IReadOnlyList<AdrSection> Create(AdrPreset preset) =>
    [
        new CapabilitiesSection(preset),
        new CrashRoundsSection(preset),
        new BenchmarkSection(),
        new WorkloadSection(preset),
        new ContentionSection(preset),
        new SqliteSection(preset),
    ];

    /// <summary>The names <c>kvbench adr --section</c> takes, in the file's order.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. Create(AdrPreset.Default).Select(section => section.Name)];
}
