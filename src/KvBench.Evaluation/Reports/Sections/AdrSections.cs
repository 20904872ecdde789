namespace KvBench.Evaluation.Reports.Sections;

/// <summary>Every section of the ADR file, in the order the file prints them and the run measures them: the one list a new section joins.</summary>
public static class AdrSections
{
    /// <summary>
    /// A fresh instance of every section, with its settings for <paramref name="preset"/>; with
    /// <paramref name="servers"/>, the server rows' section last (it installs and starts servers, so only when asked).
    /// </summary>
    public static IReadOnlyList<AdrSection> Create(AdrPreset preset, bool servers = false)
    {
        AdrSection[] embedded =
        [
            new CapabilitiesSection(preset),
            new CrashRoundsSection(preset),
            new BenchmarkSection(),
            new WorkloadSection(preset),
            new ContentionSection(preset),
            new SqliteSection(preset),
        ];
        return servers ? [.. embedded, new ServerSection(preset)] : embedded;
    }

    /// <summary>The names <c>kvbench adr --section</c> takes, in the file's order, the server section's included.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. Create(AdrPreset.Default, servers: true).Select(section => section.Name)];
}
