using KvBench.Evaluation.Sqlite;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>
/// SQLite's connection strategies, the SQLITE_BUSY trap, the upsert forms and the pragmas; a suite with an error, a
/// wrong read or a lost write fails the run. Each table names the <c>kvbench sqlite</c> command that measures it alone.
/// </summary>
public sealed class SqliteSection : AdrSection
{
    /// <summary>The suites' settings for <paramref name="preset"/>.</summary>
    public SqliteSection(AdrPreset preset = AdrPreset.Default)
        : this(preset switch
        {
            AdrPreset.Quick => SqliteSuiteSettings.Smoke,
            AdrPreset.Full => new SqliteSuiteSettings(),
            _ => SqliteSuiteSettings.Evaluation,
        })
    {
    }

    /// <summary>The suites with <paramref name="settings"/>.</summary>
    public SqliteSection(SqliteSuiteSettings settings) => Settings = settings;

    /// <inheritdoc/>
    public override string Name => "sqlite";

    /// <summary>How long the SQLite suites run.</summary>
    public SqliteSuiteSettings Settings { get; }

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
