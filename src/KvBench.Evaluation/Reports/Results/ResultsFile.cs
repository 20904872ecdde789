using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The envelope every KvBench results file shares, whatever run it holds: the layout's name and version, the kind of
/// run (<see cref="Kind"/>), KvBench's version, the command, when and on which machine it measured and each row's
/// engine. <see cref="Read(string)"/> dispatches on the kind, so <c>kvbench render</c> and <c>kvbench compare</c>
/// take any of them. The layout is documented in docs/results-file.md; a change that a reader of an older file would
/// misread raises <see cref="CurrentVersion"/>.
/// </summary>
public abstract record ResultsFile
{
    /// <summary>What <see cref="Schema"/> holds in every KvBench results file.</summary>
    public const string SchemaName = "kvbench-results";

    /// <summary>The version of the layout this build writes and reads.</summary>
    public const int CurrentVersion = 1;

    /// <summary>
    /// The kind a file without <see cref="Kind"/> holds: the layout's first files were all <c>kvbench adr</c>'s, so
    /// they read as they did without a new version.
    /// </summary>
    private const string KindBeforeKinds = RunResults.AdrKind;

    /// <summary>Each kind, with the type that holds it.</summary>
    private static readonly Dictionary<string, Type> s_kinds = new()
    {
        [RunResults.AdrKind] = typeof(RunResults),
        [DecisionResults.DecideKind] = typeof(DecisionResults),
        [CommandResults.WorkloadsKind] = typeof(CommandResults<IReadOnlyList<WorkloadResult>>),
        [CommandResults.ThreadSweepKind] = typeof(CommandResults<IReadOnlyList<WorkloadResult>>),
        [CommandResults.ScaleSweepKind] = typeof(CommandResults<IReadOnlyList<ScalePoint>>),
        [CommandResults.ContentionKind] = typeof(CommandResults<IReadOnlyList<ImportContentionResult>>),
        [CommandResults.SqliteSweepKind] = typeof(CommandResults<IReadOnlyList<WorkloadResult>>),
        [CommandResults.SqliteBusyKind] = typeof(CommandResults<IReadOnlyList<BusyTrapResult>>),
    };

    /// <summary>A file of <paramref name="kind"/>, its other facts to be read into it.</summary>
    protected ResultsFile(string kind) => Kind = kind;

    /// <summary>A file of <paramref name="kind"/> measured by this build on <paramref name="machine"/>, with this machine's engines.</summary>
    [SetsRequiredMembers]
    protected ResultsFile(string kind, string command, DateTimeOffset generatedAt, MachineInfo machine)
        : this(kind)
    {
        KvBench = KvBenchVersion;
        Command = command;
        GeneratedAt = generatedAt;
        Machine = machine;
        Engines = EnginesHere();
    }

    /// <summary>Every kind a results file can hold, as <see cref="Kind"/> spells it.</summary>
    public static IReadOnlyCollection<string> Kinds => s_kinds.Keys;

    /// <summary>Always <see cref="SchemaName"/>: tells a results file from any other JSON.</summary>
    [JsonPropertyOrder(-10)]
    public string Schema { get; init; } = SchemaName;

    /// <summary>The layout's version; a reader refuses a version it does not know.</summary>
    [JsonPropertyOrder(-9)]
    public int Version { get; init; } = CurrentVersion;

    /// <summary>What run the file holds, which says what else it holds and how it is drawn.</summary>
    [JsonPropertyOrder(-8)]
    public string Kind { get; init; }

    /// <summary>KvBench's version as built, with the commit after the '+'.</summary>
    [JsonPropertyOrder(-7)]
    public required string KvBench { get; init; }

    /// <summary>The command that regenerates the run.</summary>
    [JsonPropertyOrder(-6)]
    public required string Command { get; init; }

    /// <summary>When the measurements were taken.</summary>
    [JsonPropertyOrder(-5)]
    public required DateTimeOffset GeneratedAt { get; init; }

    /// <summary>The machine the run measured on.</summary>
    [JsonPropertyOrder(-4)]
    public required MachineInfo Machine { get; init; }

    /// <summary>Each embedded row's engine: its package and native library versions, or why it is not available.</summary>
    [JsonPropertyOrder(-3)]
    public required IReadOnlyDictionary<string, string> Engines { get; init; }

    /// <summary>KvBench's version as this process was built.</summary>
    public static string KvBenchVersion { get; } =
        typeof(ResultsFile).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    /// <summary>Each embedded row's engine on this machine, or why it cannot be had here.</summary>
    public static IReadOnlyDictionary<string, string> EnginesHere() =>
        StoreCatalog.Names.ToDictionary(name => name, name => StoreCatalog.UnavailableReason(name) ?? StoreCatalog.Engine(name));

    /// <summary>The results file beside <paramref name="markdownFile"/>: its name with <c>.results.json</c> for its extension.</summary>
    public static string PathFor(string markdownFile) => Path.ChangeExtension(markdownFile, ".results.json");

    /// <summary>
    /// Draws the file's markdown into <paramref name="markdownFile"/>, with its charts beside it, measuring nothing.
    /// </summary>
    /// <param name="markdownFile">The markdown file to write.</param>
    /// <param name="source">The results file this was read from, named where the markdown says what drew it.</param>
    /// <param name="gnuplot">The gnuplot to draw the PNGs with; default: the one on the path.</param>
    /// <exception cref="ResultsFileException">What the file holds cannot be drawn.</exception>
    public abstract Task<ChartImages> RenderAsync(string markdownFile, string source, string? gnuplot = null);

    /// <summary>Writes the file to <paramref name="path"/>, replacing one that is there.</summary>
    public async Task WriteAsync(string path)
    {
        await using FileStream file = File.Create(path);
        await JsonSerializer.SerializeAsync(file, this, GetType(), ResultsJson.Options).ConfigureAwait(false);
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
            return IsEnvelope(document.RootElement);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException)
        {
            return false;
        }
    }

    /// <summary>Whether <paramref name="root"/> says it is a results file, whatever its version.</summary>
    internal static bool IsEnvelope(JsonElement root) =>
        root.ValueKind == JsonValueKind.Object
            && root.TryGetProperty(nameof(Schema), out JsonElement schema)
            && schema.ValueKind == JsonValueKind.String
            && schema.GetString() == SchemaName;

    /// <summary>Reads the results file at <paramref name="path"/>, of whatever kind it holds.</summary>
    /// <exception cref="ResultsFileException">
    /// The file cannot be read, is not JSON, is not a KvBench results file, or has a layout version or kind this build
    /// does not know.
    /// </exception>
    public static ResultsFile Read(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        try
        {
            using FileStream file = File.OpenRead(path);
            using JsonDocument document = JsonDocument.Parse(file);
            return Read(path, document.RootElement);
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

    /// <summary>Reads a results file parsed already; <paramref name="path"/> names it in an error.</summary>
    /// <exception cref="ResultsFileException">The JSON is not a results file of a version and kind this build knows.</exception>
    internal static ResultsFile Read(string path, JsonElement root)
    {
        if (!IsEnvelope(root))
        {
            throw new ResultsFileException(path, $"is not a KvBench results file (no \"{nameof(Schema)}\": \"{SchemaName}\")");
        }

        int version = root.TryGetProperty(nameof(Version), out JsonElement number) && number.TryGetInt32(out int given) ? given : 0;
        if (version != CurrentVersion)
        {
            throw new ResultsFileException(path, $"has layout version {version}; this kvbench reads version {CurrentVersion}");
        }

        string kind = root.TryGetProperty(nameof(Kind), out JsonElement named) ? named.ToString() : KindBeforeKinds;
        if (!s_kinds.TryGetValue(kind, out Type? type))
        {
            throw new ResultsFileException(path, $"holds a run of kind '{kind}'; this kvbench reads {string.Join(", ", s_kinds.Keys)}");
        }

        try
        {
            return (ResultsFile?)root.Deserialize(type, ResultsJson.Options) ?? throw new ResultsFileException(path, "is null");
        }
        catch (JsonException e)
        {
            throw new ResultsFileException(path, $"is not a results file KvBench can read ({e.Message})", e);
        }
    }
}
