using System.Diagnostics;

using Grpc.Core;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// The <c>etcd</c> row: <see cref="EtcdStore"/> over dotnet-etcd (gRPC, plain http to every member), on a cluster of
/// three members of Debian's etcd-server 3.4 (<see cref="EtcdCluster"/>), or a user's own cluster. Replicated: a write
/// is acknowledged once a majority of members committed it, and etcd fsyncs its write-ahead log at every commit, with
/// no setting to do otherwise in 3.4. So every tier it is opened at is Synced: it declares
/// <see cref="StoreCapabilities.SyncsEveryWrite"/>, as LiteDB's shared mode does, and the tables print its Buffered
/// runs as Synced rather than set them beside Buffered rows unmarked. Reads are linearizable (etcd's default).
/// </summary>
internal sealed class EtcdRow() : ServerRow(RowName, new StoreCapabilities
{
    // One request carries key and value and must fit --max-request-bytes; the key takes a bound of its own so every
    // key up to it fits with every value up to the value bound, and the last KiB is the request's envelope (the
    // store's key prefix, protobuf framing, the Raft request header).
    MaxKeyBytes = MaxKeyBytesBound,
    MaxValueBytes = MaxRequestBytes - MaxKeyBytesBound - 1024,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,

    // A range request seeks etcd's in-memory B-tree of keys, ordered byte-wise.
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
    SyncsEveryWrite = true,
}, clientPackage: "dotnet-etcd", debianPackage: "etcd-server", endpointVariable: "KVBENCH_ETCD_ENDPOINT")
{
    /// <summary>etcd through dotnet-etcd: a three-member Raft cluster, each store a key prefix, every commit synced.</summary>
    internal const string RowName = "etcd";

    /// <inheritdoc/>
    public override string? ClusterReads => "linearizable, the leader confirms its commit index";

    /// <inheritdoc/>
    public override string? ClusterRelaxedReads => "serializable, whichever member is asked answers from what it has applied, possibly stale";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new EtcdRaw(directory)) { ManyThreads = true }];

    /// <summary>etcd's largest request, its default of 1.5 MiB (<c>--max-request-bytes</c>).</summary>
    internal const int MaxRequestBytes = 1536 * 1024;

    /// <summary>
    /// etcd's database quota, its default of 2 GiB (<c>--quota-backend-bytes</c>): past it, writes are refused with
    /// "database space exceeded".
    /// </summary>
    internal const long QuotaBackendBytes = 2L * 1024 * 1024 * 1024;

    private const int MaxKeyBytesBound = 32 * 1024;

    private static readonly HttpClient s_health = new() { Timeout = TimeSpan.FromSeconds(5) };

    /// <summary>etcd syncs every commit whatever a client asks, so one cluster serves both tiers.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.All];

    internal override ServerProcesses CreateServer(DurabilityTiers tiers, string? dataParent = null) => new EtcdCluster(this, tiers, dataParent: dataParent);

    public override bool IsOneProcess => false;

    /// <summary>Raft among the cluster's members: a write is acknowledged once a majority has it in its log.</summary>
    public override string Replication =>
        UserEndpoint is null ? $"Raft, {EtcdCluster.Members} members on this machine" : "Raft, among the members of your cluster";

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>Not used: a member needs a peer port and the whole cluster's names besides its client port (<see cref="EtcdCluster"/>).</summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) =>
        throw new NotSupportedException($"{Name} runs as a cluster of {EtcdCluster.Members} members, each started by {nameof(EtcdCluster)}.");

    /// <summary>
    /// Whether every member of <paramref name="endpoint"/> answers its <c>/health</c> with true, which etcd 3.4 says
    /// only while the cluster has a leader and no alarm (a full quota) is raised.
    /// </summary>
    internal override async Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken)
    {
        foreach (Uri member in EtcdEndpoints.Parse(endpoint))
        {
            try
            {
                string health = await s_health.GetStringAsync(new Uri(member, "/health"), cancellationToken).ConfigureAwait(false);
                if (!health.Contains("\"health\":\"true\"", StringComparison.Ordinal))
                {
                    return false;
                }
            }
            catch (HttpRequestException)
            {
                return false;
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>etcd's documentation: a write is acknowledged once a majority of members has committed it to its fsynced log.</summary>
    public override ServerTierPromise Promise(Durability durability) =>
        new(
            "etcd's own (every commit fsynced on a majority of three members)",
            TimeSpan.Zero,
            "a write is acknowledged once a majority has fsynced it: nothing acknowledged is lost");

    private protected override IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName) =>
        new EtcdStore(this, options, endpoint, storeName);

    public override ServerStoreOptions? WithRelaxedReads(ServerStoreOptions options) =>
        new EtcdStoreOptions(options) { Endpoint = options?.Endpoint, SerializableReads = true };

    private protected override IServerPing OpenPingCore(string endpoint) => new EtcdPing(endpoint);

    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        RpcException rpc when rpc.Status.Detail.Contains("database space exceeded", StringComparison.Ordinal) => StoreFailure.Full,
        RpcException => StoreFailure.Failed,
        _ => StoreFailures.DotNetIo(error),
    };
}
