using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections.ServerKills;
using KvBench.Stores;
using KvBench.Stores.PostgreSql;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// A server killed with SIGKILL under a writer and started again on its data directory: at Synced every acknowledged
/// write must be read back through it. One short round per row here; <c>kvbench crash --kill Server</c> runs more.
/// </summary>
[Trait("Category", "Servers")]
public sealed class ServerKillRoundTests(ITestOutputHelper output)
{
    /// <summary>
    /// The server rows whose server is one process and offers Synced (etcd's cluster has its own leader-kill test;
    /// Garnet offers Buffered only).
    /// </summary>
    public static TheoryData<string> SyncedSingleServers => new(StoreCatalog.AvailableServerNames
        .Where(name => StoreCatalog.Row(name) is ServerRow { IsOneProcess: true } row && row.Declared.Durability.Offers(Durability.Synced)));

    [Theory]
    [MemberData(nameof(SyncedSingleServers))]
    public async Task Nothing_acknowledged_at_Synced_is_lost_when_the_server_is_killed(string name)
    {
        int rounds = CrashRounds.RoundsFromEnvironment(1);
        using var directory = new TempDirectory();
        await using PrivateServer server = await PrivateServer.StartAsync(name, Durability.Synced);
        int firstProcess = Assert.NotNull(server.ProcessId);

        CrashRoundsResult result = await CrashRounds.RunOnServerAsync(KvBenchCli.Locate(), server, directory.Path, rounds, killMoments: rounds);

        output.WriteLine(ServerKillTable.ToMarkdown([result]));
        Assert.NotEqual(firstProcess, server.ProcessId);
        Assert.Equal(CrashKill.Server, result.Killed);
        Assert.True(result.Acknowledged >= rounds, "Every round acknowledges at least its first record.");
        Assert.Empty(result.ReopenFailures);
        Assert.Equal(0, result.Lost);
        Assert.Equal(0, result.Torn);
        Assert.False(ServerKillVerdict.Broken(result));
    }

    [Theory]
    [InlineData(0.42, "0.4 ms")]
    [InlineData(7, "7.0 ms")]
    [InlineData(1_234, "1,234 ms")]
    public void A_loss_from_the_last_few_milliseconds_keeps_its_tenths(double milliseconds, string shown) =>
        Assert.Equal(shown, ServerKillVerdict.Milliseconds(TimeSpan.FromMilliseconds(milliseconds)));

    [Fact]
    public async Task A_row_without_a_server_has_none_to_kill() =>
        await Assert.ThrowsAsync<ArgumentException>(() => PrivateServer.StartAsync(SqliteRow.WalName, Durability.Synced));

    [Theory]
    [InlineData(Durability.Synced, 0, 0, "held: nothing acknowledged lost", false)]
    [InlineData(Durability.Synced, 3, 20, "broken: 3 acknowledged writes lost, from up to 20 ms before the kill; Synced promises none", true)]
    [InlineData(Durability.Buffered, 40, 450, "within the promise: 40 acknowledged writes lost, from up to 450 ms before the kill, of 600 ms allowed", false)]
    [InlineData(Durability.Buffered, 90, 900, "broken: 90 acknowledged writes lost, from up to 900 ms before the kill, more than the 600 ms allowed", true)]
    public void A_loss_is_held_against_what_the_servers_setting_promises(
        Durability durability, long lost, int lostSpanMilliseconds, string verdict, bool broken)
    {
        var result = new CrashRoundsResult(PostgreSqlRow.RowName, durability, 2, 1_000, lost, 0, [])
        {
            Killed = CrashKill.Server,
            LostSpan = TimeSpan.FromMilliseconds(lostSpanMilliseconds),
        };

        Assert.Equal(verdict, ServerKillVerdict.Of(result));
        Assert.Equal(broken, ServerKillVerdict.Broken(result));
        Assert.Contains(
            $"| {lost:N0} | {(lost == 0 ? "-" : $"{lostSpanMilliseconds} ms before the kill")} |",
            ServerKillTable.ToMarkdown([result]),
            StringComparison.Ordinal);
    }
}
