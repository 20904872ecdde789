using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.Claims;

/// <summary>
/// The claims of the MineSaga write-up comparing SQLite with MySQL, each beside what this machine measured at equal
/// durability: Sqlite_WAL against MariaDB (KvBench's own servers, started for the section and stopped after it), and
/// the SQLITE_BUSY trap's load through SQLite's naive pool beside MySqlConnector's pool. A write check that fails, a
/// row that lets an error through, or an acknowledged write lost fails the run; a claim that does not hold is a finding.
/// </summary>
/// <param name="settings">How the claims are measured.</param>
public sealed class PublishedClaimsSection(PublishedClaimSettings settings) : AdrSection<PublishedClaimSettings>(settings)
{
    /// <summary>The settings for <paramref name="preset"/>.</summary>
    public PublishedClaimsSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.Choose(quick: PublishedClaimSettings.Smoke, evaluation: new PublishedClaimSettings(), full: PublishedClaimSettings.Full))
    {
    }

    /// <inheritdoc/>
    public override string Name => "claims";

    /// <summary>What was measured, when it was.</summary>
    [InResultsFile]
    public PublishedClaimResults? Results { get; set; }

    /// <summary>Why nothing was measured, when the MariaDB row cannot be had here.</summary>
    [InResultsFile]
    public string? NotMeasured { get; private set; }

    /// <summary>
    /// The claims with <paramref name="settings"/>, as <c>kvbench servers claims</c> measures them: the section's tables
    /// under its chapter, and each failed write check, error let through or acknowledged write lost as a problem.
    /// </summary>
    /// <param name="settings">How the claims are measured.</param>
    /// <param name="workDirectory">Where the stores go, kept afterwards; a new temporary folder, deleted afterwards, when <see langword="null"/>.</param>
    /// <param name="log">Where progress goes.</param>
    public static async Task<RanAlone<PublishedClaimResults?>> RunAloneAsync(
        PublishedClaimSettings settings, string? workDirectory, Action<string>? log = null)
    {
        string directory = workDirectory ?? Path.Combine(Path.GetTempPath(), "kvbench-claims-" + Guid.NewGuid().ToString("N"));
        var section = new PublishedClaimsSection(settings);
        try
        {
            await section.MeasureAsync(new AdrContext(directory, directory, cli: null, log)).ConfigureAwait(false);
        }
        finally
        {
            if (workDirectory is null && Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }

        var markdown = new AdrMarkdown(images: null, MachineInfo.Collect(directory), command: "kvbench servers claims");
        section.WriteTo(markdown);
        return new RanAlone<PublishedClaimResults?>(markdown.Output.ToString(), section.Results, section.Problems());
    }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (StoreCatalog.UnavailableReason(Settings.MySqlRow) is { } reason)
        {
            NotMeasured = $"{Settings.MySqlRow}: {reason}";
            return;
        }

        context.Log(
            $"Published claims: Sqlite_WAL against MariaDB, {Settings.SparseRounds:N0} sparse rounds and batches of " +
                $"{string.Join(" and ", Settings.Volumes)}...");
        await using (RowHostGroup hosts = await StoreCatalog.StartHostsAsync([Settings.MySqlRow]).ConfigureAwait(false))
        {
            Results = await Task.Run(() => PublishedClaims.Measure(Settings, Path.Combine(context.WorkDirectory, "claims"), context.Log)).ConfigureAwait(false);
            context.Log($"The SQLITE_BUSY trap's load through SQLite's naive pool and MySqlConnector's pool, {Settings.BusyTrap.Writes:N0} writes...");
            BusyTrapResults = await Task.Run(() => MeasureBusyTrap(Path.Combine(context.WorkDirectory, "claims-busy"))).ConfigureAwait(false);
        }

        context.Took("The published claims");
    }

    /// <summary>
    /// The SQLITE_BUSY trap's load through SQLite's naive pool, MySqlConnector's pool of as many connections, and the
    /// <c>Sqlite_WAL</c> and <c>MariaDB</c> rows, when it was measured.
    /// </summary>
    [InResultsFile]
    public IReadOnlyList<BusyTrapResult>? BusyTrapResults { get; set; }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() => [.. Results?.Problems ?? [], .. BusyTrap.Problems(BusyTrapResults ?? [])];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is null && NotMeasured is null)
        {
            return;
        }

        markdown.Within(AdrSections.ServerChecksChapter);
        markdown.Output.AppendLine("### The MineSaga write-up's claims, measured").AppendLine();
        markdown.Output.AppendLine(Results is null ? $"Not measured: {NotMeasured}." : PublishedClaimsTable.ToMarkdown(Results)).AppendLine();
        if (BusyTrapResults is { } busy)
        {
            BusyTrapSettings trap = Settings.BusyTrap;
            markdown.Output.AppendLine("### The SQLITE_BUSY trap's load through MySqlConnector's pool").AppendLine();
            markdown.Output.AppendLine(
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"The write-up saw its pool of SQLite connections throw SQLITE_BUSY under asynchronous writes " +
                        $"and MySQL's not. The same load on both: {trap.Writers} asynchronous writers, " +
                        $"{trap.Writes:N0} writes at Buffered, each reading a record, awaiting " +
                        $"{trap.AwaitBetweenReadAndWrite.TotalMilliseconds:0.#} ms (the application's own work), " +
                        $"then writing its next version; SQLite's naive pool and MySqlConnector's pool each of " +
                        $"{trap.PoolConnections} connections with a transaction per write, and both rows through " +
                        $"`IKeyValueStore`.")).AppendLine();
            SqliteTables.BusyTrap(busy).WriteTo(markdown.Output);
        }
    }

    /// <summary>
    /// The four targets of <see cref="BusyTrapResults"/>, one after another, each in a directory of its own under
    /// <paramref name="workDirectory"/>.
    /// </summary>
    private List<BusyTrapResult> MeasureBusyTrap(string workDirectory)
    {
        ServerRow mariaDb = StoreCatalog.ServerRowNamed(Settings.MySqlRow);
        string endpoint = mariaDb.EndpointFor(Durability.Buffered)
            ?? throw new InvalidOperationException($"{mariaDb.Name}'s server was started, yet the row names no endpoint at {Durability.Buffered}.");
        return
        [
            BusyTrap.NaivePool(Settings.BusyTrap, Settings.BusyTrap.PoolConnections, workDirectory),
            BusyTrap.ConnectorPool(Settings.BusyTrap, Settings.BusyTrap.PoolConnections, endpoint, workDirectory),
            BusyTrap.Row(Settings.SqliteRow, Settings.BusyTrap, workDirectory),
            BusyTrap.Row(Settings.MySqlRow, Settings.BusyTrap, workDirectory),
        ];
    }
}
