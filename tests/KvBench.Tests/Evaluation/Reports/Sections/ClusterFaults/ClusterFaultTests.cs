using KvBench.Cli;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections.ClusterFaults;
using KvBench.Stores;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>
/// The short form of <c>kvbench cluster fault</c> on every cluster row: a few seconds of YCSB-A at a fixed rate with one
/// member faulted in the middle, on a cluster of the test's own. A three-member Raft cluster keeps every update it
/// acknowledged through the loss of any one member, serves no stale linearizable read, and takes updates again once a
/// majority has a leader; reads without a quorum (etcd's serializable) are run too, their stale reads counted.
/// </summary>
[Trait("Category", "Servers")]
public sealed class ClusterFaultTests(ITestOutputHelper output)
{
    public static TheoryData<string, MemberFault, FaultTarget, bool> Faults
    {
        get
        {
            var faults = new TheoryData<string, MemberFault, FaultTarget, bool>();
            foreach (ServerRow row in StoreCatalog.ServerRows.Where(row => row.IsAvailable && !row.IsOneProcess))
            {
                faults.Add(row.Name, MemberFault.Kill, FaultTarget.Leader, false);
                faults.Add(row.Name, MemberFault.Pause, FaultTarget.Follower, false);
                if (row.WithRelaxedReads(new ServerStoreOptions { Directory = "." }) is not null)
                {
                    faults.Add(row.Name, MemberFault.Pause, FaultTarget.Leader, true);
                }
            }

            return faults;
        }
    }

    public static TheoryData<string> ClusterRows => new(StoreCatalog.ServerRows.Where(row => row.IsAvailable && !row.IsOneProcess).Select(row => row.Name));

    [Theory]
    [MemberData(nameof(Faults))]
    public async Task A_cluster_loses_nothing_it_acknowledged_when_one_member_is_faulted_and_takes_updates_again(
        string row, MemberFault fault, FaultTarget target, bool relaxedReads)
    {
        ClusterFaultResult result = await ClusterFault.RunAsync(
            row,
            ClusterFaultSettings.Short with { Fault = fault, Target = target, RelaxedReads = relaxedReads });
        output.WriteLine(ClusterFaultTable.ToMarkdown([result]));

        Assert.True(result.WritesAcknowledged > 0, "No update was acknowledged.");
        Assert.Equal(0, result.LostAfterRun);
        if (!relaxedReads && StoreCatalog.Row(row) is ServerRow { LinearizableReads: true })
        {
            // Reads without a quorum may be stale by design (etcd's serializable ones, dqlite's leader reads); they are
            // counted, and linearizable ones never are.
            Assert.Equal(0, result.StaleReads);
        }

        Assert.True(result.LongestStallSeconds is not null, "No update was acknowledged after the fault.");
        Assert.True(result.Before.Operations > 0 && result.During.Operations > 0 && result.After.Operations > 0, "A phase had no operation due in it.");
        Assert.True(result.LeaderAfter is not null, "No leader after the run.");
        Assert.True(result.After.Failed < result.After.Operations, "Every operation due after the member was back failed.");
    }

    [Theory]
    [MemberData(nameof(ClusterRows))]
    public async Task Batched_and_single_writes_land_and_both_kinds_of_read_read_them_back(string row)
    {
        ClusterRequestsResult result = await ClusterRequests.RunAsync(row, records: 60, batchSize: 20);
        output.WriteLine(ClusterFaultTable.RequestsToMarkdown([result]));

        Assert.True(
            result.SinglePerSecond > 0 && result.BatchedPerSecond > 0 && result.ReadsPerSecond > 0,
            $"{result.SinglePerSecond}, {result.BatchedPerSecond} and {result.ReadsPerSecond} a second.");
        Assert.Equal(
            ((ServerRow)StoreCatalog.Row(row)).WithRelaxedReads(new ServerStoreOptions { Directory = "." }) is not null,
            result.RelaxedReadsPerSecond is > 0);
        Assert.Equal(60, result.Records);
    }

    [Fact]
    public async Task The_command_refuses_a_follower_of_one_server_and_an_embedded_row_in_one_line()
    {
        CliRunResult follower = await KvBenchCli.Locate().RunAsync(
            ["cluster", "fault", "--store", RedisRow.RowName, "--members", "Follower"],
            TimeSpan.FromSeconds(60));
        CliRunResult embedded = await KvBenchCli.Locate().RunAsync(["cluster", "fault", "--store", SqliteRow.WalName], TimeSpan.FromSeconds(60));

        Assert.Equal(ExitCodes.Usage, follower.ExitCode);
        Assert.Contains("Redis runs one server, which has no follower", follower.Error, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.Usage, embedded.ExitCode);
        Assert.Contains($"'{SqliteRow.WalName}' is not a server row", embedded.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_row_of_one_server_killed_under_the_same_load_keeps_what_it_synced_and_takes_updates_after_its_restart()
    {
        ClusterFaultResult result = await ClusterFault.RunAsync(RedisRow.RowName, ClusterFaultSettings.Short);
        output.WriteLine(ClusterFaultTable.ToMarkdown([result]));

        Assert.Equal(0, result.LostAfterRun);
        Assert.Equal(0, result.StaleReads);
        Assert.True(result.After.Failed < result.After.Operations, "Every operation due after the server was back failed.");
    }

    [Fact]
    public async Task A_row_of_one_server_is_no_cluster_to_fault()
    {
        NotSupportedException error = await Assert.ThrowsAsync<NotSupportedException>(() => PrivateServer.StartClusterAsync(RedisRow.RowName));
        Assert.Contains("kill rounds", error.Message, StringComparison.Ordinal);
    }
}
