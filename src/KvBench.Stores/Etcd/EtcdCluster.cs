using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;

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
internal sealed class EtcdCluster(EtcdRow row, DurabilityTiers tiers, long quotaBackendBytes = EtcdRow.QuotaBackendBytes) : RunningCluster
{
    /// <summary>Three: the fewest members that keep a quorum with one of them lost.</summary>
    public const int Members = 3;

    /// <summary>How long a member that does not answer its status request is waited for: a paused member never answers.</summary>
    private static readonly TimeSpan s_statusTimeout = TimeSpan.FromSeconds(1);

    private const string EtcdServer = "/usr/bin/etcd";

    private RowHostGroup? _members;
    private ProcessRowHost[] _processes = [];
    private string? _dataDirectory;
    private string? _endpoint;
    private string[] _memberEndpoints = [];

    public override DurabilityTiers Tiers => tiers;

    /// <summary>The client endpoints of the members, <c>127.0.0.1:port</c> each, comma-separated in member order.</summary>
    public override string? Endpoint => _endpoint;

    public override string? DataDirectory => _dataDirectory;

    public override IReadOnlyList<int> ProcessIds => [.. Volatile.Read(ref _processes).Select(process => process.ProcessId).OfType<int>()];

    public override int MemberCount => Members;

    public override async Task<int> LeaderAsync(CancellationToken cancellationToken)
    {
        // Each member says its own id and the leader's; the leader is the member whose id is the one they name.
        var ids = new ulong?[_memberEndpoints.Length];
        ulong? leader = null;
        for (int member = 0; member < _memberEndpoints.Length; member++)
        {
            using EtcdClient client = EtcdStore.Connect(_memberEndpoints[member]);
            try
            {
                StatusResponse status = await client.StatusAsync(new StatusRequest(), deadline: DateTime.UtcNow + s_statusTimeout, cancellationToken: cancellationToken).ConfigureAwait(false);
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
            : throw new InvalidOperationException($"No member of {row.Name}'s cluster that answered named a leader among those that answered.");
    }

    public override async Task<long> KillMemberAsync(int member)
    {
        ProcessRowHost process = Volatile.Read(ref _processes)[member];
        long killedAt = Stopwatch.GetTimestamp();

        // ProcessRowHost ends the member's process tree with SIGKILL and waits until it is gone.
        await process.DisposeAsync().ConfigureAwait(false);
        return killedAt;
    }

    public override Task RestartMemberAsync(int member, CancellationToken cancellationToken) =>
        Volatile.Read(ref _processes)[member].StartAsync(cancellationToken);

    public override bool SignalMember(int member, int signal) =>
        Volatile.Read(ref _processes)[member].ProcessId is { } pid && Signals.Send(pid, signal);

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        await row.Install.EnsureInstalledAsync(row.Name).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(row.Name, tiers);
        try
        {
            row.InitializeData(_dataDirectory, tiers);
            int[] ports = LoopbackPorts.Free(2 * Members);
            Member[] members = [.. Enumerable.Range(0, Members).Select(index => new Member($"member{index}", ports[2 * index], ports[(2 * index) + 1]))];
            string initialCluster = string.Join(',', members.Select(member => $"{member.Name}={member.PeerUrl}"));
            string token = $"kvbench-{Guid.NewGuid():N}";
            ProcessRowHost[] processes = [.. members.Select(member => new ProcessRowHost(
                row.Name,
                MemberStartInfo(member, Path.Combine(_dataDirectory, member.Name), initialCluster, token, quotaBackendBytes),
                ready => ListensAsync(member.ClientPort, ready),
                row.ReadyTimeout))];
            Volatile.Write(ref _processes, processes);
            _memberEndpoints = [.. members.Select(member => $"127.0.0.1:{member.ClientPort}")];
            _endpoint = string.Join(',', _memberEndpoints);

            // Each member is started once it listens, before it has peers; the cluster is ready once it has a leader.
            _members = new RowHostGroup(processes);
            await _members.StartAsync(cancellationToken).ConfigureAwait(false);
            await WaitForLeaderAsync(_endpoint, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public override async ValueTask DisposeAsync()
    {
        // A kill leaves nothing etcd needs: the data directory goes with it.
        if (Interlocked.Exchange(ref _members, null) is { } members)
        {
            await members.DisposeAsync().ConfigureAwait(false);
        }

        Volatile.Write(ref _processes, []);
        _memberEndpoints = [];
        _endpoint = null;
        if (Interlocked.Exchange(ref _dataDirectory, null) is { } dataDirectory && Directory.Exists(dataDirectory))
        {
            Directory.Delete(dataDirectory, recursive: true);
        }
    }

    /// <summary>
    /// One member's command line. <c>--max-request-bytes</c> and <c>--quota-backend-bytes</c> are etcd's defaults,
    /// given so the limits the row declares are visible here; revision compaction keeps the last 10,000 revisions so a
    /// long run of overwrites does not fill the quota with history.
    /// </summary>
    private static ProcessStartInfo MemberStartInfo(Member member, string dataDirectory, string initialCluster, string token, long quotaBackendBytes) => new(EtcdServer,
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

    /// <summary>Whether the member's client port accepts a connection: it listens before its peers are up.</summary>
    private static async Task<bool> ListensAsync(int port, CancellationToken cancellationToken)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", port, cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    private async Task WaitForLeaderAsync(string endpoint, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(row.ReadyTimeout);
        try
        {
            while (!await row.AnswersAsync(endpoint, timeout.Token).ConfigureAwait(false))
            {
                await Task.Delay(TimeSpan.FromMilliseconds(50), timeout.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new StoreUnavailableException(row.Name, $"its {Members} members at {endpoint} had no leader within {row.ReadyTimeout.TotalSeconds:0} s");
        }
    }

    private sealed record Member(string Name, int ClientPort, int PeerPort)
    {
        public string ClientUrl => $"http://127.0.0.1:{ClientPort}";

        public string PeerUrl => $"http://127.0.0.1:{PeerPort}";
    }
}
