using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Stores;
using KvBench.Stores.Redis;



namespace KvBench.Tests.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// Power-loss rounds under a real server: its data directory on the power-cut file system, a writer putting records
/// through it, the server's process tree killed and the power cut, the file system mounted again over what was flushed
/// and the server started again on it. At Synced nothing acknowledged may be lost or torn and the server must start
/// every time; Redis at Buffered (<c>appendfsync no</c>) shows the cut does drop what a server did not flush. A short
/// form of what the <c>powerloss</c> section runs with <c>--servers</c>; <c>KVBENCH_POWER_ROUNDS</c> sets the rounds.
/// </summary>
[Trait("Category", "Servers")]
public sealed class ServerPowerLossRoundTests(ITestOutputHelper output)
{
    private const int Rounds = 3;

    /// <summary>The one-process server rows that offer Synced (the clusters are left out, and Garnet offers Buffered only).</summary>
    public static TheoryData<string> SyncedServers => new(OneServerRows.Plan(powerCut: true).Planned
        .Where(tier => tier.Durability == Durability.Synced)
        .Select(tier => tier.Row.Name));

    [Theory]
    [MemberData(nameof(SyncedServers))]
    public async Task No_acknowledged_write_is_lost_at_Synced_when_the_power_is_cut_under_the_server(string name)
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await PowerLossRounds.RunOnServerAsync(
            KvBenchCli.Locate(), name, Durability.Synced, directory.Path, PowerLossRounds.RoundsFromEnvironment(Rounds), cutMoments: 7);

        output.WriteLine(CrashTable.ToMarkdown([result]));
        Assert.Equal(PowerLossRounds.RoundsFromEnvironment(Rounds), result.Rounds);
        PowerLossRoundTests.AssertNothingLost(result);
    }

    [Fact]
    public async Task A_server_that_does_not_flush_loses_its_acknowledged_writes_so_the_Synced_check_can_fail()
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await PowerLossRounds.RunOnServerAsync(
            KvBenchCli.Locate(), RedisRow.RowName, Durability.Buffered, directory.Path, Rounds, cutMoments: 7, tornCuts: false);

        output.WriteLine(CrashTable.ToMarkdown([result]));
        Assert.Empty(result.ReopenFailures);
        Assert.True(
            result.Lost > 0,
            $"Redis at appendfsync no flushes no write, yet {result.Acknowledged:N0} records acknowledged before power cuts all survived.");
    }

    [Fact]
    public async Task A_cluster_row_has_no_one_server_to_cut_the_power_under()
    {
        using var directory = new TempDirectory();
        string cluster = StoreCatalog.ServerRows.First(row => !row.IsOneProcess).Name;

        await Assert.ThrowsAsync<NotSupportedException>(
            () => PowerLossRounds.RunOnServerAsync(KvBenchCli.Locate(), cluster, Durability.Synced, directory.Path, 1, cutMoments: 7));
    }
}
