using KvBench.Core;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Claims;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Stores;
using KvBench.Stores.MariaDb;
using KvBench.Stores.Sqlite;



namespace KvBench.Tests.Evaluation.Reports.Sections.Claims;

/// <summary>
/// The MineSaga write-up's claims: measured through Sqlite_WAL and MariaDB for real in a short form, and each verdict
/// read from the cells it is given, never typed.
/// </summary>
public sealed class PublishedClaimsTests(ITestOutputHelper output)
{
    private static readonly PublishedClaimSettings s_tiny = new()
    {
        RoundsDivisor = 900,
        Volumes = [3, 12],
        Repeats = 1,
        Records = 50,
        Tiers = [Durability.Buffered],
    };

    [Fact]
    [Trait("Category", "Servers")]
    public async Task Every_claim_gets_a_figure_and_a_verdict_from_a_short_real_run_whose_writes_all_check()
    {
        using var directory = new TempDirectory();
        PublishedClaimResults results;
        await using (var hosts = await StoreCatalog.StartHostsAsync([MariaDbRow.RowName]))
        {
            results = PublishedClaims.Measure(s_tiny, directory.Path);
        }

        output.WriteLine(PublishedClaimsTable.ToMarkdown(results));
        Assert.Empty(results.Problems);

        // Per tier: two rows' sparse rounds, each volume synchronous and pooled for both rows' own statements, and the two REPLACE forms synchronous.
        Assert.Equal(2 + (2 * 2 * 2) + (2 * 2), results.Cells.Count);
        Assert.All(results.Cells, cell => Assert.True(cell.Batches.Count > 0 && cell.Batches.All(batch => batch > TimeSpan.Zero), $"{cell} measured nothing."));
        Assert.Equal(10, results.Cells.Single(cell => cell.Sparse && cell.Row == MariaDbRow.RowName).Batches.Count);
        Assert.All(PublishedClaimVerdicts.Of(results), verdict => Assert.Matches("^(holds|does not hold|holds only at .+)", verdict.Verdict));
    }

    [Fact]
    [Trait("Category", "Servers")]
    public async Task The_busy_traps_load_through_MySqlConnectors_pool_loses_nothing_it_acknowledged_and_the_rows_let_no_error_through()
    {
        using var directory = new TempDirectory();
        var section = new PublishedClaimsSection(s_tiny with { BusyTrap = BusyTrapSettings.Smoke });

        await section.MeasureAsync(new AdrContext(directory.Path, directory.Path, cli: null, output.WriteLine));

        Assert.Empty(section.Problems());
        BusyTrapResult[] results = [.. section.BusyTrapResults!];
        Assert.Equal(["naive pool of 4", "MySqlConnector pool of 4", SqliteRow.WalName, MariaDbRow.RowName], results.Select(result => result.Target));
        BusyTrapResult connectorPool = results[1];
        Assert.Equal(0, connectorPool.LostAcknowledgedWrites);
        Assert.All(results[2..], row =>
            Assert.True(
                row.Safe,
                $"{row.Target}: {row.BusyErrors} busy, {row.OtherErrors} other errors ({row.FirstError}), {row.LostWrites} lost."));
        var markdown = new AdrMarkdown(images: null, MachineInfo.Collect(directory.Path), "the test");
        section.WriteTo(markdown);
        Assert.Contains("\nMySqlConnector pool of 4 | MaximumPoolSize=4", markdown.Output.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(2.0, 2.0, "holds")]
    [InlineData(0.5, 0.5, "does not hold")]
    [InlineData(2.0, 0.5, "holds only at Synced")]
    public void Whether_MariaDB_outperforms_SQLite_is_read_from_the_cells_at_each_tier(
        double mariaDbSpeedUpSynced,
        double mariaDbSpeedUpBuffered,
        string verdict)
    {
        PublishedClaimResults results = Synthetic(tier => tier == Durability.Synced ? mariaDbSpeedUpSynced : mariaDbSpeedUpBuffered);

        ClaimVerdict outperforms = PublishedClaimVerdicts.Of(results)[0];

        Assert.StartsWith("\"MySQL outperforms SQLite", outperforms.Claim, StringComparison.Ordinal);
        Assert.Equal(verdict, outperforms.Verdict);
    }

    [Fact]
    public void A_REPLACE_measured_faster_than_the_rows_own_upsert_is_said_so()
    {
        PublishedClaimResults results = Synthetic(_ => 1.5, replaceSpeedUp: 3);

        ClaimVerdict upsert = Assert.Single(PublishedClaimVerdicts.Of(results), verdict => verdict.Claim.Contains("over REPLACE", StringComparison.Ordinal));

        Assert.Equal("does not hold", upsert.Verdict);
        Assert.Contains(
            "REPLACE measured faster at Synced 30, Synced 300, Buffered 30, Buffered 300: the MariaDB row writes " +
                "with INSERT ... ON DUPLICATE KEY UPDATE.",
            upsert.Measured,
            StringComparison.Ordinal);
    }

    /// <summary>
    /// Cells at the default settings where every SQLite batch takes 10 ms and MariaDB's are <paramref name="mariaDbSpeedUp"/>
    /// times faster; MariaDB's REPLACE is <paramref name="replaceSpeedUp"/> times faster than its own upsert.
    /// </summary>
    private static PublishedClaimResults Synthetic(Func<Durability, double> mariaDbSpeedUp, double replaceSpeedUp = 0.5)
    {
        var settings = new PublishedClaimSettings();
        PublishedClaims.Contenders contenders = PublishedClaims.ContendersOf(settings);
        var cells = new List<WriteCell>();
        TimeSpan sqlite = TimeSpan.FromMilliseconds(10);
        foreach (Durability tier in settings.Tiers)
        {
            TimeSpan mariaDb = sqlite / mariaDbSpeedUp(tier);
            cells.Add(new(contenders.Sqlite.Row, contenders.Sqlite.Statement, tier, true, 10, WriteMode.Synchronous, 1, [sqlite]));
            cells.Add(new(contenders.MariaDb.Row, contenders.MariaDb.Statement, tier, true, 10, WriteMode.Synchronous, 1, [mariaDb]));
            foreach (int volume in settings.Volumes)
            {
                foreach (WriteMode mode in new[] { WriteMode.Synchronous, WriteMode.Pool })
                {
                    cells.Add(new(contenders.Sqlite.Row, contenders.Sqlite.Statement, tier, false, volume, mode, 1, [sqlite * volume]));
                    cells.Add(new(contenders.MariaDb.Row, contenders.MariaDb.Statement, tier, false, volume, mode, 1, [mariaDb * volume]));
                }

                cells.Add(
                    new(
                        contenders.SqliteReplace.Row, contenders.SqliteReplace.Statement, tier, false, volume,
                        WriteMode.Synchronous, 1, [sqlite * volume]));
                cells.Add(
                    new(
                        contenders.MariaDbReplace.Row, contenders.MariaDbReplace.Statement, tier, false,
                        volume, WriteMode.Synchronous, 1, [mariaDb * volume / replaceSpeedUp]));
            }
        }

        return new PublishedClaimResults(cells, [], settings);
    }
}
