using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Etcd;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>Which server rows the ADR file's server kill and power-loss rounds run, decided before any server starts.</summary>
public sealed class OneServerRowsTests
{
    [Fact]
    public void Every_one_process_server_row_is_killed_at_each_tier_it_offers_and_a_cluster_is_left_out_with_why()
    {
        (IReadOnlyList<(ServerRow Row, Durability Durability)> planned, IReadOnlyList<ServerLeftOut> leftOut) = OneServerRows.Plan();

        foreach (ServerRow row in StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null))
        {
            Durability[] tiers = [.. planned.Where(round => round.Row == row).Select(round => round.Durability)];
            if (row.IsOneProcess)
            {
                Assert.Equal(Enum.GetValues<Durability>().Where(tier => row.Declared.Durability.Offers(tier)), tiers);
            }
            else
            {
                Assert.Empty(tiers);
                Assert.Contains(leftOut, left => left.Row == row && left.Reason.StartsWith("it runs a cluster", StringComparison.Ordinal));
            }
        }

        Assert.False(StoreCatalog.Row(EtcdRow.RowName) is ServerRow { IsOneProcess: true });
    }

    [Fact]
    public void A_power_cut_leaves_out_a_server_that_the_FUSE_file_system_would_run_with_another_setting()
    {
        (IReadOnlyList<(ServerRow Row, Durability Durability)> planned, IReadOnlyList<ServerLeftOut> leftOut) = OneServerRows.Plan(powerCut: true);

        foreach (ServerRow row in StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null && row.IsOneProcess))
        {
            bool runs = planned.Any(round => round.Row == row);
            Assert.Equal(row.PowerCutNotModelled is null, runs);
            Assert.Equal(!runs, leftOut.Contains(new ServerLeftOut(row, row.PowerCutNotModelled!)));
        }

        Assert.NotNull(StoreCatalog.ServerRowNamed(GarnetRow.RowName).PowerCutNotModelled);
    }
}
