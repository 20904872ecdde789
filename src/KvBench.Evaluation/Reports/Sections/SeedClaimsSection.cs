using KvBench.Evaluation.Servers;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>
/// The claims of the MineSaga write-up comparing SQLite with MySQL, each beside what this machine measured at equal
/// durability: Sqlite_WAL against MariaDB (KvBench's own servers, started for the section and stopped after it).
/// A write check that fails fails the run; a claim that does not hold is a finding, not a failure.
/// </summary>
/// <param name="settings">How the claims are measured.</param>
public sealed class SeedClaimsSection(SeedClaimSettings settings) : AdrSection<SeedClaimSettings>(settings)
{
    /// <summary>The settings for <paramref name="preset"/>.</summary>
    public SeedClaimsSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.Choose(quick: SeedClaimSettings.Smoke, evaluation: new SeedClaimSettings(), full: SeedClaimSettings.Full))
    {
    }

    /// <inheritdoc/>
    public override string Name => "claims";

    /// <summary>What was measured, when it was.</summary>
    public SeedClaimResults? Results { get; set; }

    /// <summary>Why nothing was measured, when the MariaDB row cannot be had here.</summary>
    public string? NotMeasured { get; private set; }

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (StoreCatalog.UnavailableReason(StoreNames.MariaDb) is { } reason)
        {
            NotMeasured = $"{StoreNames.MariaDb}: {reason}";
            return;
        }

        context.Log($"Seed claims: Sqlite_WAL against MariaDB, {Settings.SparseRounds:N0} sparse rounds and batches of {string.Join(" and ", Settings.Volumes)}...");
        await using (RowHostGroup hosts = await StoreCatalog.StartHostsAsync([StoreNames.MariaDb]).ConfigureAwait(false))
        {
            Results = await Task.Run(() => SeedClaims.Measure(Settings, Path.Combine(context.WorkDirectory, "claims"), context.Log)).ConfigureAwait(false);
        }

        context.Took("The seed claims");
    }

    /// <inheritdoc/>
    public override IReadOnlyList<string> Problems() => Results?.Problems ?? [];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is null && NotMeasured is null)
        {
            return;
        }

        markdown.Within(AdrSections.ServerChapter);
        markdown.Output.AppendLine("### The MineSaga write-up's claims, measured").AppendLine();
        markdown.Output.AppendLine(Results is null ? $"Not measured: {NotMeasured}." : SeedClaimsTable.ToMarkdown(Results)).AppendLine();
    }
}
