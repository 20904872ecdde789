using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Etcd;
using KvBench.Stores.Servers;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>Which server rows the ADR file's server kill and power-loss rounds run, decided before any server starts.</summary>
public sealed class OneServerRowsTests
{
    [Fact]
    public void Every_one_process_server_row_is_killed_at_each_tier_it_offers_and_a_cluster_is_left_out_with_why()
    {
        (IReadOnlyList<(ServerRow Row, Durability Durability)> planned, IReadOnlyList<string> leftOut) = OneServerRows.Plan();

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
                Assert.Contains(leftOut, line => line.StartsWith($"{row.Name}: it runs a cluster", StringComparison.Ordinal));
            }
        }

        Assert.False(StoreCatalog.Row(EtcdRow.RowName) is ServerRow { IsOneProcess: true });
    }
}
