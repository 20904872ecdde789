using System.Diagnostics;
using System.Globalization;

using dotnet_etcd;

using Etcdserverpb;

using Grpc.Core;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Etcd;
using KvBench.Stores.Servers;

using Xunit.Abstractions;

namespace KvBench.Tests.Etcd;

/// <summary>
/// A replica is what the etcd row adds: with its leader killed (SIGKILL) under a stream of writes, the two members
/// left elect another, writes resume, and every write the cluster acknowledged is still there. The test runs a cluster
/// of its own, so the kill disturbs no other suite.
/// </summary>
[Trait("Category", "Servers")]
public sealed class EtcdLeaderKillTests(ITestOutputHelper output)
{
    private const int SigKill = 9;

    private static readonly TimeSpan s_beforeKill = TimeSpan.FromSeconds(2);

    private static readonly TimeSpan s_afterResume = TimeSpan.FromSeconds(2);

    /// <summary>A cluster that has not resumed by then has failed: etcd's election timeout is 1 s.</summary>
    private static readonly TimeSpan s_resumeTimeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Writes_resume_after_the_leader_is_killed_and_none_acknowledged_is_lost()
    {
        var row = (EtcdRow)StoreCatalog.Row(StoreNames.Etcd);
        Assert.True(row.IsAvailable, row.UnavailableReason);
        await using var cluster = (RunningServer)row.CreateServer(DurabilityTiers.All);
        await cluster.StartAsync();
        string endpoint = Assert.IsType<string>(cluster.Endpoint);
        using var directory = new TempDirectory();
        var options = new ServerStoreOptions { Directory = directory.Path, Durability = Durability.Synced, Endpoint = endpoint };

        var acknowledged = new List<int>();
        var errors = new Dictionary<string, int>(StringComparer.Ordinal);
        var clock = Stopwatch.StartNew();
        long killedAtTicks = -1;
        TimeSpan? resumedAt = null;
        int leaderPid;
        using (IKeyValueStore store = StoreCatalog.Open(StoreNames.Etcd, options))
        {
            Task<int> kill = Task.Run(async () =>
            {
                await Task.Delay(s_beforeKill);
                int pid = await LeaderProcessAsync(endpoint, cluster.ProcessIds);
                Assert.True(Signals.Send(pid, SigKill), $"The leader's process {pid} could not be killed.");
                Volatile.Write(ref killedAtTicks, clock.Elapsed.Ticks);
                return pid;
            });
            for (int i = 0; resumedAt is null || clock.Elapsed < resumedAt + s_afterResume; i++)
            {
                if (kill.IsFaulted)
                {
                    await kill;
                }

                long killedBefore = Volatile.Read(ref killedAtTicks);
                Assert.True(killedBefore < 0 || clock.Elapsed.Ticks < killedBefore + s_resumeTimeout.Ticks, $"No write succeeded within {s_resumeTimeout.TotalSeconds:0} s of the leader's kill.");
                try
                {
                    store.Put(TestData.Key(i), BitConverter.GetBytes(i));
                    acknowledged.Add(i);

                    // Writes have resumed once one that began after the kill is acknowledged.
                    if (killedBefore >= 0 && resumedAt is null)
                    {
                        resumedAt = clock.Elapsed;
                    }
                }
                catch (KeyValueStoreException error)
                {
                    string kind = error.InnerException is RpcException rpc ? $"{rpc.StatusCode}: {rpc.Status.Detail}" : error.GetType().Name;
                    errors[kind] = errors.GetValueOrDefault(kind) + 1;
                }
            }

            leaderPid = await kill;
        }

        int lost;
        using (IKeyValueStore reopened = StoreCatalog.Open(StoreNames.Etcd, options with { Access = StoreAccess.ReadOnly }))
        {
            lost = acknowledged.Count(i => reopened.Get(TestData.Key(i)) is not { } value || BitConverter.ToInt32(value) != i);
        }

        var killedAt = TimeSpan.FromTicks(killedAtTicks);
        TimeSpan resume = resumedAt!.Value - killedAt;
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"etcd, leader (pid {leaderPid}) killed at {killedAt.TotalSeconds:0.00} s: {acknowledged.Count} writes acknowledged, {lost} lost, writes resumed {resume.TotalMilliseconds:0} ms after the kill; errors: {(errors.Count == 0 ? "none" : string.Join("; ", errors.Select(error => $"{error.Value} x {error.Key}")))}"));
        Assert.Equal(0, lost);
    }

    /// <summary>The process of the member that leads: each member is asked, and says its own id and its leader's.</summary>
    private static async Task<int> LeaderProcessAsync(string endpoint, IReadOnlyList<int> processIds)
    {
        IReadOnlyList<Uri> members = EtcdEndpoints.Parse(endpoint);
        Assert.Equal(members.Count, processIds.Count);
        for (int i = 0; i < members.Count; i++)
        {
            using var client = new EtcdClient(members[i].GetLeftPart(UriPartial.Authority), configureChannelOptions: channel => channel.Credentials = ChannelCredentials.Insecure);
            StatusResponse status = await client.StatusAsync(new StatusRequest());
            if (status.Header.MemberId == status.Leader)
            {
                return processIds[i];
            }
        }

        throw new InvalidOperationException($"No member of {endpoint} says it leads.");
    }
}
