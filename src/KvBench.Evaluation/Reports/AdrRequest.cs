using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Reports;

/// <summary>What an ADR run measures and where it writes: the options <c>kvbench adr</c> and the evaluation run fill in.</summary>
public sealed record AdrRequest
{
    /// <summary>The markdown file to write; its charts go into the folder beside it.</summary>
    public required string OutputFile { get; init; }

    /// <summary>The command that regenerates the file, printed in it.</summary>
    public required string Command { get; init; }

    /// <summary>How hard every section pushes. Default: <see cref="AdrPreset.Default"/>.</summary>
    public AdrPreset Preset { get; init; } = AdrPreset.Default;

    /// <summary>Where BenchmarkDotNet's reports are. Default: <see cref="AdrGenerator.DefaultResultsDirectory"/>.</summary>
    public string ResultsDirectory { get; init; } = AdrGenerator.DefaultResultsDirectory;

    /// <summary>
    /// The scratch directory for the sections' stores, kept afterwards; its file system is the one measured and reported.
    /// Default (<see langword="null"/>): a new folder under the system temp folder, deleted afterwards.
    /// </summary>
    public string? WorkDirectory { get; init; }

    /// <summary>
    /// The sections to run, by <see cref="AdrSection.Name"/>. Default (<see langword="null"/>): every section of the
    /// default file, and the server sections with <see cref="Servers"/>.
    /// </summary>
    public IReadOnlyCollection<string>? Sections { get; init; }

    /// <summary>Whether the server sections (<see cref="AdrSections.CreateServers"/>) follow the default ones. Default: <see langword="false"/>.</summary>
    public bool Servers { get; init; }

    /// <summary>
    /// The profile to decide for after the sections, its record written beside the file (<see cref="DecisionFile"/>),
    /// taking the capability probes the sections made; <see langword="null"/> for no decision. Default: none.
    /// </summary>
    public DecisionProfile? Profile { get; init; }

    /// <summary>The profile's file, linked from the record; <see langword="null"/> for the built-in default.</summary>
    public string? ProfilePath { get; init; }

    /// <summary>How hard the decision measures. Default: <see cref="DecisionSettings"/>' defaults.</summary>
    public DecisionSettings DecisionSettings { get; init; } = new();

    /// <summary>The decision record's file: <c>kvbench-decision.md</c> beside <see cref="OutputFile"/>.</summary>
    public string DecisionFile => Path.Combine(Path.GetDirectoryName(Path.GetFullPath(OutputFile))!, "kvbench-decision.md");

    /// <summary>The sections asked for, in the file's order, with their settings for <see cref="Preset"/>.</summary>
    /// <exception cref="ArgumentException">A name that no section has.</exception>
    public IReadOnlyList<AdrSection> CreateSections()
    {
        IReadOnlyList<AdrSection> all = [.. AdrSections.Create(Preset, Servers), .. AdrSections.CreateServers(Preset)];
        if (Sections is null)
        {
            return [.. (Servers ? all : AdrSections.Create(Preset)).Where(section => !section.RunsOnlyWhenNamed)];
        }

        foreach (string name in Sections.Where(name => !AdrSections.Names.Contains(name, StringComparer.OrdinalIgnoreCase)))
        {
            throw new ArgumentException($"No ADR section is named '{name}'; the sections are {string.Join(", ", AdrSections.Names)}.", nameof(Sections));
        }

        return [.. all.Where(section => Sections.Contains(section.Name, StringComparer.OrdinalIgnoreCase))];
    }
}
