

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
    public SqliteResults? Results { get; set; }

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
