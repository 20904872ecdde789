using System.Text;

using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Sections.Sqlite;

/// <summary>
/// SQLite's connection strategies, the SQLITE_BUSY trap, the upsert forms and the pragmas; a suite with an error, a
/// wrong read or a lost write fails the run. Each table names the <c>kvbench sqlite</c> command that measures it alone.
/// </summary>
/// <param name="settings">How long the SQLite suites run.</param>
public sealed class SqliteSection(SqliteSuiteSettings settings) : AdrSection<SqliteSuiteSettings>(settings)
{
    /// <summary>The suites' settings for <paramref name="preset"/>.</summary>
    public SqliteSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.Choose(quick: SqliteSuiteSettings.Smoke, evaluation: SqliteSuiteSettings.Evaluation, full: new SqliteSuiteSettings()))
    {
    }

    /// <inheritdoc/>
    public override string Name => "sqlite";

    /// <summary>SQLite's strategies, busy trap, upserts and pragmas, when the run measured them.</summary>
    [InResultsFile]
    public SqliteResults? Results { get; set; }

    /// <summary>
    /// Every suite with <paramref name="settings"/>, as <c>kvbench sqlite all</c> runs them: the section's tables, each
    /// naming the command that measures it alone, under the line that names <paramref name="producedBy"/>.
    /// </summary>
    public static RanAlone<SqliteResults> RunAlone(SqliteSuiteSettings settings, string producedBy, string workDirectory, Action<string>? log = null)
    {
        SqliteResults results = SqliteSuites.All(settings, workDirectory, log);
        var output = new StringBuilder();
        SqliteTables.WriteSection(output, results, producedBy);
        return new RanAlone<SqliteResults>(output.ToString(), results, results.Problems());
    }

    /// <summary>
    /// One sweep alone, as <c>kvbench sqlite strategies|upsert|pragmas</c> runs it on <paramref name="row"/>: the thread
    /// table of its runs.
    /// </summary>
    /// <param name="suite">strategies, upsert or pragmas.</param>
    /// <param name="row">The row of <see cref="SqliteSuiteSettings.Row"/>.</param>
    /// <param name="settings">The sweep's records, thread counts and run lengths.</param>
    /// <param name="workDirectory">Where the stores go.</param>
    /// <param name="log">Where progress goes.</param>
    public static RanAlone<IReadOnlyList<WorkloadResult>> RunSweepAlone(
        string suite, string row, SuiteSettings settings, string workDirectory, Action<string>? log = null)
    {
        IReadOnlyList<WorkloadResult> results = suite switch
        {
            "strategies" => SqliteSuites.Strategies(row, settings, workDirectory, log),
            "upsert" => SqliteSuites.Variants(row, SqliteSuites.UpsertForms, settings, workDirectory, log),
            "pragmas" => SqliteSuites.Variants(row, SqliteSuites.PragmaSettings, settings, workDirectory, log),
            _ => throw new ArgumentException($"No SQLite sweep is named '{suite}'; they are strategies, upsert and pragmas.", nameof(suite)),
        };
        return SweepAlone(results);
    }

    /// <summary>
    /// What <c>kvbench sqlite strategies|upsert|pragmas</c> prints of <paramref name="results"/>, measured now or read
    /// from its results file.
    /// </summary>
    public static RanAlone<IReadOnlyList<WorkloadResult>> SweepAlone(IReadOnlyList<WorkloadResult> results) =>
        RanAlone<IReadOnlyList<WorkloadResult>>.Of([ThreadTables.Threads(results)], results, results.Select(run => run.Failure));

    /// <summary>
    /// The busy trap alone, as <c>kvbench sqlite busy</c> runs it on <paramref name="row"/> and its strategy rows: its
    /// table, and a row that let an error through or lost a write as a problem.
    /// </summary>
    public static RanAlone<IReadOnlyList<BusyTrapResult>> RunBusyTrapAlone(
        string row, BusyTrapSettings settings, string workDirectory, Action<string>? log = null)
    {
        return BusyTrapAlone(BusyTrap.Run(StoreCatalog.WithStrategies(row), settings, workDirectory, log));
    }

    /// <summary>What <c>kvbench sqlite busy</c> prints of <paramref name="results"/>, measured now or read from its results file.</summary>
    public static RanAlone<IReadOnlyList<BusyTrapResult>> BusyTrapAlone(IReadOnlyList<BusyTrapResult> results) =>
        RanAlone<IReadOnlyList<BusyTrapResult>>.Of([SqliteTables.BusyTrap(results)], results, BusyTrap.Problems(results));

    /// <inheritdoc/>
    public override Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.Log("Running the SQLite strategies, the busy trap, the upsert forms and the pragmas...");
        Results = SqliteSuites.All(Settings, Path.Combine(context.WorkDirectory, "sqlite"), context.Log);
        context.Took("The SQLite section");
        return Task.CompletedTask;
    }

    /// <summary>"SQLite suite failed: ..." for each suite that went wrong.</summary>
    public override IReadOnlyList<string> Problems() =>
        [.. (Results?.Problems() ?? []).Select(problem => $"SQLite suite failed: {problem}")];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is not null)
        {
            SqliteTables.WriteSection(markdown.Output, Results, markdown.Command);
        }
    }
}
