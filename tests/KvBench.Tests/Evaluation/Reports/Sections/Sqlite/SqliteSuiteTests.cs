using System.CommandLine;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Stores;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Reports.Sections.Sqlite;

/// <summary>The SQLite suites: the busy trap reproduces, the rows are safe under it, and every table is measured, not typed.</summary>
public sealed class SqliteSuiteTests
{
    [Fact]
    public void The_naive_pool_lets_busy_errors_reach_the_caller_and_loses_exactly_those_writes()
    {
        using var directory = new TempDirectory();

        BusyTrapResult naive = BusyTrap.NaivePool(BusyTrapSettings.Smoke, connections: 4, directory.Path);

        Assert.True(naive.BusyErrors >= 1, $"The naive pool of 4 gave no busy error: {naive}");
        Assert.Equal(0, naive.OtherErrors);
        Assert.Equal(naive.BusyErrors, naive.LostWrites);
        Assert.Equal(0, naive.LostAcknowledgedWrites);
    }

    [Theory]
    [InlineData(SqliteRow.WalName)]
    [InlineData(SqliteRow.AdoNetName)]
    [InlineData(SqliteRow.PerThreadName)]
    public void A_row_under_the_same_load_gives_no_busy_error_and_loses_nothing(string row)
    {
        using var directory = new TempDirectory();

        BusyTrapResult result = BusyTrap.Row(row, BusyTrapSettings.Smoke, directory.Path);

        Assert.Equal((0, 0, 0), (result.BusyErrors, result.OtherErrors, result.LostWrites));
    }

    [Fact]
    public void A_pool_of_one_gives_no_busy_error()
    {
        using var directory = new TempDirectory();

        BusyTrapResult result = BusyTrap.NaivePool(BusyTrapSettings.Smoke, connections: 1, directory.Path);

        Assert.Equal((0, 0), (result.BusyErrors, result.LostWrites));
    }

    [Fact]
    public void The_naive_pool_refuses_a_directory_without_a_store_and_a_pool_of_none()
    {
        using var directory = new TempDirectory();

        Assert.Throws<StoreNotFoundException>(() => new SqliteNaiveConnectionPool(directory.Path, 4));
        Assert.Throws<ArgumentOutOfRangeException>(() => new SqliteNaiveConnectionPool(directory.Path, 0));
    }

    [Fact]
    public void Every_suite_measures_every_line_and_the_adr_file_names_each_command()
    {
        using var directory = new TempDirectory();

        SqliteResults results = SqliteSuites.All(SqliteSuiteSettings.Smoke, directory.Path);

        Assert.Empty(results.Problems());
        Assert.Equal(StoreCatalog.WithStrategies(new SqliteSuiteSettings().Row).Order(), results.Strategies.Select(run => run.Store).Distinct().Order());
        Assert.Equal(SqliteSuites.UpsertForms.Select(form => form.Label), results.Upserts.Select(run => run.Store).Distinct());
        Assert.Equal(SqliteSuites.PragmaSettings.Select(setting => setting.Label), results.Pragmas.Select(run => run.Store).Distinct());
        Assert.All(results.Strategies.Concat(results.Upserts).Concat(results.Pragmas), run => Assert.True(run.OperationsPerSecond > 0, run.Store));
        var report = new AdrReport
        {
            Sections = [new SqliteSection(results.Settings) { Results = results }],
            Machine = MachineInfo.Collect(directory.Path),
            Command = "the test",
            GeneratedAt = DateTimeOffset.UtcNow,
        };
        string markdown = report.ToMarkdown();
        Assert.Empty(report.Problems());
        Assert.Contains("## SQLite: connection strategies", markdown, StringComparison.Ordinal);
        foreach (string suite in (string[])["strategies", "busy", "upsert", "pragmas"])
        {
            Assert.Contains(SqliteSuites.Command(suite, results.Settings), markdown, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(SqliteUpsert.OnConflictDoUpdate)]
    [InlineData(SqliteUpsert.InsertOrReplace)]
    public void Both_upsert_forms_overwrite_and_the_pragmas_open(SqliteUpsert upsert)
    {
        using var directory = new TempDirectory();
        var options = new SqliteStoreOptions { Directory = directory.Path, Upsert = upsert, CacheSizeKibibytes = 4096, MmapSizeBytes = 1 << 20 };

        using (IKeyValueStore store = StoreCatalog.Open(SqliteRow.WalName, options))
        {
            store.Put([1], [1]);
            store.Put([1], [2]);
            store.PutMany([KeyValuePair.Create(new byte[] { 1 }, new byte[] { 3 }), KeyValuePair.Create(new byte[] { 2 }, new byte[] { 4 })]);
        }

        using IKeyValueStore reopened = StoreCatalog.Open(SqliteRow.WalName, new StoreOptions { Directory = directory.Path });
        Assert.Equal([3], reopened.Get([1]));
        Assert.Equal([4], reopened.Get([2]));
    }

    [Fact]
    public void Kvbench_sqlite_busy_prints_the_trap_table_and_succeeds_when_every_row_is_safe()
    {
        using var directory = new TempDirectory();
        var output = new StringWriter();
        var error = new StringWriter();

        int exitCode = KvBenchCommand.Invoke(
            ["sqlite", "busy", "--writes", "300", "--writers", "16", "--work-dir", directory.Path],
            new InvocationConfiguration { Output = output, Error = error });

        Assert.True(exitCode == ExitCodes.Ok, error.ToString());
        Assert.Contains("naive pool of 4", output.ToString(), StringComparison.Ordinal);
        Assert.All(
            StoreCatalog.WithStrategies(new SqliteSuiteSettings().Row),
            row => Assert.Contains($"\n{row} |", output.ToString(), StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("sqlite", "busy", "--writers", "0")]
    [InlineData("sqlite", "strategies", "--records", "many")]
    [InlineData("sqlite", "no-such-suite")]
    public void A_bad_sqlite_command_line_is_a_usage_error(params string[] arguments)
    {
        Assert.Equal(ExitCodes.Usage, KvBenchCommand.Invoke(arguments, new InvocationConfiguration { Output = TextWriter.Null, Error = TextWriter.Null }));
    }
}
