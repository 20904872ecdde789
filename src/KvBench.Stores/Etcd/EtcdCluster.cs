using System.Diagnostics;
using System.Globalization;

using dotnet_etcd;

using Etcdserverpb;

using Grpc.Core;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// The etcd cluster KvBench runs for the etcd row: <see cref="Members"/> members on loopback, each with a client
/// and a peer port of its own and a data directory of its own below the cluster's, started as a static cluster (every
/// member named in <c>--initial-cluster</c>, a token no other cluster shares), and ready once every member says it
/// has a leader. Disposed, every member is killed and the data deleted.
/// </summary>
/// <param name="row">The etcd row.</param>
/// <param name="tiers">The tiers it serves.</param>
/// <param name="quotaBackendBytes">Each member's database quota; the row's is etcd's default, a test asks for less to fill it.</param>
/// <param name="dataParent">The folder its data directory is made in; default (<see langword="null"/>): under the system temp folder.</param>
internal sealed class EtcdCluster(EtcdRow row, DurabilityTiers tiers, long quotaBackendBytes = EtcdRow.QuotaBackendBytes, string? dataParent = null)
    : ServerProcesses(row, tiers, Members, dataParent)
{
    /// <summary>Three: the fewest members that keep a quorum with one of them lost.</summary>
    public const int Members = 3;

    /// <summary>How long a member that does not answer its status request is waited for: a paused member never answers.</summary>
    private static readonly TimeSpan s_statusTimeout = TimeSpan.FromSeconds(1);

    private const string EtcdServer = "/usr/bin/etcd";

    protected override string NotReady => "had no leader";

    public override async Task<int> LeaderAsync(CancellationToken cancellationToken)
    {
        // Each member says its own id and the leader's; the leader is the member whose id is the one they name.
        IReadOnlyList<string> endpoints = MemberEndpoints;
        var ids = new ulong?[endpoints.Count];
        ulong? leader = null;
        for (int member = 0; member < endpoints.Count; member++)
        {
            using EtcdClient client = EtcdStore.Connect(endpoints[member]);
            try
            {
                StatusResponse status = await client.StatusAsync(
                    new StatusRequest(),
                    deadline: DateTime.UtcNow + s_statusTimeout,
                    cancellationToken: cancellationToken).ConfigureAwait(false);
                ids[member] = status.Header.MemberId;
                leader = status.Leader == 0 ? leader : status.Leader;
            }
            catch (RpcException)
            {
                // Killed or paused: it answers nothing, and leads nothing the others would follow.
            }
        }

        int found = Array.IndexOf(ids, leader);
        return leader is not null && found >= 0
            ? found
            : throw new InvalidOperationException($"No member of {Row.Name}'s cluster that answered named a leader among those that answered.");
    }

    protected override IReadOnlyList<ClusterMember> CreateMembers(string dataDirectory, int[] ports)
    {
        Member[] members = [.. Enumerable.Range(0, Members).Select(index => new Member($"member{index}", ports[2 * index], ports[(2 * index) + 1]))];
        string initialCluster = string.Join(',', members.Select(member => $"{member.Name}={member.PeerUrl}"));
        string token = $"kvbench-{Guid.NewGuid():N}";
        return [
            .. members.Select(member =>
                MemberListeningOn(
                    member.ClientPort,
                    MemberStartInfo(member, Path.Combine(dataDirectory, member.Name), initialCluster, token, quotaBackendBytes)))];
    }

    /// <summary>
    /// One member's command line. <c>--max-request-bytes</c> and <c>--quota-backend-bytes</c> are etcd's defaults,
    /// given so the limits the row declares are visible here; revision compaction keeps the last 10,000 revisions so a
    /// long run of overwrites does not fill the quota with history.
    /// </summary>
    private static ProcessStartInfo MemberStartInfo(
        Member member, string dataDirectory, string initialCluster, string token,
        long quotaBackendBytes) => new(EtcdServer,
    [
        "--name", member.Name,
        "--data-dir", dataDirectory,
        "--listen-client-urls", member.ClientUrl,
        "--advertise-client-urls", member.ClientUrl,
        "--listen-peer-urls", member.PeerUrl,
        "--initial-advertise-peer-urls", member.PeerUrl,
        "--initial-cluster", initialCluster,
        "--initial-cluster-state", "new",
        "--initial-cluster-token", token,
        "--max-request-bytes", EtcdRow.MaxRequestBytes.ToString(CultureInfo.InvariantCulture),
        "--quota-backend-bytes", quotaBackendBytes.ToString(CultureInfo.InvariantCulture),
        "--auto-compaction-mode", "revision",
        "--auto-compaction-retention", "10000",
        "--logger", "zap",
        "--log-level", "warn",
    ]);

    private sealed record Member(string Name, int ClientPort, int PeerPort)
    {
        public string ClientUrl => $"http://127.0.0.1:{ClientPort}";

        public string PeerUrl => $"http://127.0.0.1:{PeerPort}";
    }
}
