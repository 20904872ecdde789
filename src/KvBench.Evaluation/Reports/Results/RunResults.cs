using System.Diagnostics.CodeAnalysis;
using System.Text.Json;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The results file of a run of <c>kvbench adr</c> or the evaluation (kind <see cref="AdrKind"/>): everything it
/// measured, section by section, beside the markdown (<see cref="ResultsFile.PathFor"/>). Every table and chart of the
/// markdown is drawn from what this holds, so <c>kvbench render</c> redraws them without measuring again, and
/// <c>kvbench compare</c> reads two of them.
/// </summary>
public sealed record RunResults : ResultsFile
{
    /// <summary>The <see cref="ResultsFile.Kind"/> of an adr or evaluation run's file.</summary>
    public const string AdrKind = "adr";

    /// <summary>An adr or evaluation run's file, its facts to be read into it.</summary>
    public RunResults()
        : base(AdrKind)
    {
    }

    /// <summary>What <paramref name="report"/> measured.</summary>
    [SetsRequiredMembers]
    private RunResults(AdrReport report)
        : base(AdrKind, report.Command, report.GeneratedAt, report.Machine) =>
        Sections = [.. report.Sections.Select(section => new SectionResults(section.Name, SectionState.Save(section)))];

    /// <summary>The sections, in the order the markdown prints them.</summary>
    public required IReadOnlyList<SectionResults> Sections { get; init; }

    /// <summary>What <paramref name="report"/> measured, as a results file holds it.</summary>
    public static RunResults Of(AdrReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return new RunResults(report);
    }

    /// <summary>
    /// The report these results draw: each section made afresh and given its saved state, so its tables and charts come
    /// out as the run that measured them wrote them.
    /// </summary>
    /// <exception cref="JsonException">A section's state does not fit the section.</exception>
    /// <exception cref="ArgumentException">A section's name is not one of <see cref="AdrSections.Names"/>.</exception>
    public AdrReport ToReport()
    {
        var sections = new List<AdrSection>();
        foreach (SectionResults saved in Sections)
        {
            AdrSection section = AdrSections.Named(saved.Name);
            SectionState.Load(section, saved.State);
            sections.Add(section);
        }

        return new AdrReport { Sections = sections, Machine = Machine, Command = Command, GeneratedAt = GeneratedAt };
    }

    /// <summary>Reads the results file at <paramref name="path"/>, which must hold an adr or evaluation run.</summary>
    /// <exception cref="ResultsFileException">
    /// The file cannot be read, is not a results file this build knows, or holds another kind of run.
    /// </exception>
    public static new RunResults Read(string path) =>
        ResultsFile.Read(path) as RunResults ?? throw new ResultsFileException(path, "holds no run of kvbench adr or the evaluation");

    /// <summary>
    /// Reads the results file at <paramref name="path"/> and draws its report (<see cref="ToReport"/>).
    /// </summary>
    /// <exception cref="ResultsFileException">The file cannot be read, or a section's state does not fit it.</exception>
    public static AdrReport ReadReport(string path) => Read(path).Draw(path);

    /// <summary>The report these results draw, with a section that does not fit named as a fault of <paramref name="path"/>.</summary>
    private AdrReport Draw(string path)
    {
        try
        {
            return ToReport();
        }
        catch (Exception e) when (e is JsonException or ArgumentException)
        {
            throw new ResultsFileException(path, $"holds a section this kvbench cannot draw ({e.Message})", e);
        }
    }

    /// <inheritdoc/>
    public override async Task<ChartImages> RenderAsync(string markdownFile, string source, string? gnuplot = null) =>
        await Draw(source).WriteAsync(markdownFile, gnuplot, results: false).ConfigureAwait(false);
}
