using System.Reflection;
using System.Text.Json;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// A run's results file: everything a run of <c>kvbench adr</c> or the evaluation measured, with the machine, the
/// versions and the command, as JSON beside the markdown (<see cref="PathFor"/>). Every table and chart of the markdown
/// is drawn from what this holds, so <c>kvbench render</c> redraws them without measuring again, and
/// <c>kvbench compare</c> reads two of them. The layout is documented in docs/results-file.md; a change that a reader of
/// an older file would misread raises <see cref="CurrentVersion"/>.
/// </summary>
public sealed record RunResults
{
    /// <summary>What <see cref="Schema"/> holds in every KvBench results file.</summary>
    public const string SchemaName = "kvbench-results";

    /// <summary>The version of the layout this build writes and reads.</summary>
    public const int CurrentVersion = 1;

    /// <summary>Always <see cref="SchemaName"/>: tells a results file from any other JSON.</summary>
    public string Schema { get; init; } = SchemaName;

    /// <summary>The layout's version; a reader refuses a version it does not know.</summary>
    public int Version { get; init; } = CurrentVersion;

    /// <summary>KvBench's version as built, with the commit after the '+'.</summary>
    public required string KvBench { get; init; }

    /// <summary>The command that regenerates the run.</summary>
    public required string Command { get; init; }

    /// <summary>When the measurements were taken.</summary>
    public required DateTimeOffset GeneratedAt { get; init; }

    /// <summary>The machine the run measured on.</summary>
    public required MachineInfo Machine { get; init; }

    /// <summary>Each embedded row's engine: its package and native library versions, or why it is not available.</summary>
    public required IReadOnlyDictionary<string, string> Engines { get; init; }

    /// <summary>The sections, in the order the markdown prints them.</summary>
    public required IReadOnlyList<SectionResults> Sections { get; init; }

    /// <summary>KvBench's version as this process was built.</summary>
    public static string KvBenchVersion { get; } =
        typeof(RunResults).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    /// <summary>The results file beside <paramref name="markdownFile"/>: its name with <c>.results.json</c> for its extension.</summary>
    public static string PathFor(string markdownFile) => Path.ChangeExtension(markdownFile, ".results.json");

    /// <summary>What <paramref name="report"/> measured, as a results file holds it.</summary>
    public static RunResults Of(AdrReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return new RunResults
        {
            KvBench = KvBenchVersion,
            Command = report.Command,
            GeneratedAt = report.GeneratedAt,
            Machine = report.Machine,
            Engines = StoreCatalog.Names.ToDictionary(name => name, name => StoreCatalog.UnavailableReason(name) ?? StoreCatalog.Engine(name)),
            Sections = [.. report.Sections.Select(section => new SectionResults(section.Name, SectionState.Save(section)))],
        };
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

    /// <summary>Writes the file to <paramref name="path"/>, replacing one that is there.</summary>
    public async Task WriteAsync(string path)
    {
        await using FileStream file = File.Create(path);
        await JsonSerializer.SerializeAsync(file, this, ResultsJson.Options).ConfigureAwait(false);
    }

    /// <summary>
    /// Whether the file at <paramref name="path"/> says it is a results file (its <see cref="Schema"/>), whatever its
    /// version; <see langword="false"/> for any other JSON, or a file that cannot be read or parsed.
    /// </summary>
    public static bool IsResultsFile(string path)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
            return document.RootElement.ValueKind == JsonValueKind.Object
                && document.RootElement.TryGetProperty(nameof(Schema), out JsonElement schema)
                && schema.ValueKind == JsonValueKind.String
                && schema.GetString() == SchemaName;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException)
        {
            return false;
        }
    }

    /// <summary>Reads the results file at <paramref name="path"/>.</summary>
    /// <exception cref="ResultsFileException">
    /// The file cannot be read, is not JSON, is not a KvBench results file, or has a layout version this build does not
    /// know.
    /// </exception>
    public static RunResults Read(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        try
        {
            using FileStream file = File.OpenRead(path);
            using JsonDocument document = JsonDocument.Parse(file);
            JsonElement root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object
                || !root.TryGetProperty(nameof(Schema), out JsonElement schema)
                || schema.ValueKind != JsonValueKind.String
                || schema.GetString() != SchemaName)
            {
                throw new ResultsFileException(path, $"is not a KvBench results file (no \"{nameof(Schema)}\": \"{SchemaName}\")");
            }

            int version = root.TryGetProperty(nameof(Version), out JsonElement number) && number.TryGetInt32(out int given) ? given : 0;
            if (version != CurrentVersion)
            {
                throw new ResultsFileException(path, $"has layout version {version}; this kvbench reads version {CurrentVersion}");
            }

            return root.Deserialize<RunResults>(ResultsJson.Options) ?? throw new ResultsFileException(path, "is null");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new ResultsFileException(path, e.Message, e);
        }
        catch (JsonException e)
        {
            throw new ResultsFileException(path, $"is not a results file KvBench can read ({e.Message})", e);
        }
    }

    /// <summary>
    /// Reads the results file at <paramref name="path"/> and draws its report (<see cref="ToReport"/>).
    /// </summary>
    /// <exception cref="ResultsFileException">The file cannot be read, or a section's state does not fit it.</exception>
    public static AdrReport ReadReport(string path)
    {
        RunResults results = Read(path);
        try
        {
            return results.ToReport();
        }
        catch (Exception e) when (e is JsonException or ArgumentException)
        {
            throw new ResultsFileException(path, $"holds a section this kvbench cannot draw ({e.Message})", e);
        }
    }
}
