using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Reports.Sections.ClusterFaults;
using KvBench.Stores;
using KvBench.Stores.Memory;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;

namespace KvBench.Tests.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>How the fault run's load is timed against the fault, with a member whose return takes longer than the load after it.</summary>
public sealed class ClusterFaultPhaseTests
{
    [Fact]
    public async Task The_load_goes_on_after_the_member_is_back_however_long_its_return_took()
    {
        var settings = new ClusterFaultSettings
        {
            Rate = 50,
            Before = TimeSpan.FromSeconds(0.3),
            During = TimeSpan.FromSeconds(0.3),
            After = TimeSpan.FromSeconds(0.5),
        };

        // A return three times as long as the load after it, as an etcd member's restart took on a loaded CI machine.
        await using var server = new SlowReturn(settings.After * 3);
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });

        ClusterFaultResult result = await ClusterFault.RunAsync(server, store, settings, CancellationToken.None);

        Assert.True(result.After.Operations > 0, "No operation was due once the member was back.");
        Assert.Equal(0, result.LostAfterRun);
    }

    /// <summary>
    /// A stand-in for a cluster whose faulted member takes <paramref name="returnTakes"/> to come back: nothing runs
    /// (the test's store is in memory), only the fault's timing is kept. Named after a server row only because a
    /// result names its row.
    /// </summary>
    private sealed class SlowReturn(TimeSpan returnTakes) : IFaultableServer
    {
        public ServerRow Row { get; } = (ServerRow)StoreCatalog.Row(RedisRow.RowName);

        public Durability Durability => Durability.Buffered;

        public string Endpoint => "none";

        public int MemberCount => 3;

        public Task<int> LeaderAsync(CancellationToken cancellationToken = default) => Task.FromResult(0);

        public Task<long> FaultAsync(int member, MemberFault fault) => Task.FromResult(Stopwatch.GetTimestamp());

        public Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default) => Task.Delay(returnTakes, cancellationToken);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
