using System.Diagnostics;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The <c>dqlite</c> row: dqlite 1.11 (Debian's libdqlite0, on libraft 0.15), a Raft-replicated SQLite, on a cluster of
/// three <c>dqlite-demo</c> nodes (<see cref="DqliteCluster"/>; each node is go-dqlite's demo application, which hosts a
/// real dqlite node and serves its database "demo"), or a user's own cluster; read and written by <see cref="DqliteStore"/>
/// through go-dqlite's <c>dqlite</c> shell (Debian's go-dqlite 1.11.5) over dqlite's wire protocol. Not through the
/// demo's HTTP front: it only gets and puts one text key, has no delete and no scan, and answers HTTP 200 even for an
/// error. There is no .NET client for dqlite; the shell is go-dqlite's own client, its driver, its SQL.
/// Replicated: a write is acknowledged once a majority of the nodes has it in its Raft log, and libraft writes its log
/// through descriptors opened O_DIRECT|O_DSYNC, each append a device flush on every node, with no setting to do
/// otherwise. So every tier it is opened at is Synced: it declares <see cref="StoreCapabilities.SyncsEveryWrite"/>, as
/// etcd does. Reads are the leader's, without a quorum check (dqlite's documentation, "Consistency model").
/// </summary>
internal sealed class DqliteRow() : ServerRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = DqliteSql.MaxKeyBytes,
    MaxValueBytes = MaxValueBytesBound,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,

    // A range of the table's primary key, a B-tree ordered by memcmp of the key bytes.
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
    SyncsEveryWrite = true,
}, clientPackage: "go-dqlite", debianPackage: "go-dqlite", endpointVariable: "KVBENCH_DQLITE_ENDPOINT")
{
    /// <summary>dqlite through go-dqlite's shell: a three-node Raft-replicated SQLite, each store a table, every Raft append synced.</summary>
    internal const string RowName = "dqlite";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new DqliteRaw(directory))];

    /// <summary>The database every node of dqlite-demo serves, which holds the row's tables beside the demo's own.</summary>
    internal const string Database = "demo";

    /// <summary>
    /// KvBench's bound, not dqlite's (SQLite's is about 1 GB): a value larger than a line is sent in parts of about
    /// 2,000 bytes, one shell line each, so a value costs a line per 2 KB to write and twice its size in hex to read,
    /// and staging and committing a value of the bound already takes seconds.
    /// </summary>
    internal const int MaxValueBytesBound = 4 * 1024 * 1024;

    private static readonly TimeSpan s_answerTimeout = TimeSpan.FromSeconds(5);

    /// <summary>dqlite syncs every log append whatever a client asks, so one cluster serves both tiers.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.All];

    internal override ServerProcesses CreateServer(DurabilityTiers tiers, string? dataParent = null) => new DqliteCluster(this, tiers, dataParent);

    public override bool IsOneProcess => false;

    /// <summary>Raft among the cluster's nodes: a write is acknowledged once a majority has it in its log.</summary>
    public override string Replication =>
        UserEndpoint is null ? $"Raft, {DqliteCluster.Members} dqlite-demo nodes on this machine" : "Raft, among the nodes of your cluster";

    /// <summary>
    /// No: dqlite's leader runs a query on its own copy of the database without a read index or lease check (dqlite's
    /// documentation, "Consistency model"), so a leader cut off from the others answers from what it had until it
    /// learns it was deposed.
    /// </summary>
    public override bool LinearizableReads => false;

    /// <inheritdoc/>
    public override string? ClusterReads => "the leader answers from what it has applied, without confirming it still leads";

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>Not used: a node needs the address of the first besides its own ports (<see cref="DqliteCluster"/>).</summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) =>
        throw new NotSupportedException($"{Name} runs as a cluster of {DqliteCluster.Members} nodes, each started by {nameof(DqliteCluster)}.");

    /// <summary>Whether the cluster has a leader that lists every member of <paramref name="endpoint"/> as a voter.</summary>
    internal override Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken) => Task.Run(() =>
    {
        IReadOnlyList<string> members = DqliteEndpoints.Parse(endpoint);
        string[]? cluster = DqliteCluster.Ask(endpoint, ".cluster", s_answerTimeout);
        return cluster is not null && members.All(member => cluster.Any(line => line.EndsWith($"|{member}|voter", StringComparison.Ordinal)));
    }, cancellationToken);

    /// <summary>dqlite's documentation: a transaction is committed once a majority of voters has its Raft entry on disk.</summary>
    public override ServerTierPromise Promise(Durability durability) =>
        new(
            "dqlite's own (every Raft append written O_DSYNC on a majority of three nodes)",
            TimeSpan.Zero,
            "a write is acknowledged once a majority has it in its synced log: nothing acknowledged is lost");

    private protected override IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName) =>
        new DqliteStore(this, options, endpoint, storeName);

    private protected override IServerPing OpenPingCore(string endpoint) => new DqlitePing(endpoint);

    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        DqliteStatementException statement when statement.Message.Contains("database or disk is full", StringComparison.Ordinal) => StoreFailure.Full,
        DqliteStatementException statement when statement.Message.Contains("malformed", StringComparison.Ordinal) => StoreFailure.Damaged,
        DqliteStatementException => StoreFailure.Failed,
        _ => StoreFailures.DotNetIo(error),
    };

    /// <summary>The shell and the nodes, from go-dqlite, and the dqlite library they run.</summary>
    private protected override string DescribeEngine() =>
        $"dqlite {DebianPackages.InstalledVersion("libdqlite0") ?? "(libdqlite0 not installed)"} (libdqlite0), three " +
            $"dqlite-demo nodes, clients through the dqlite shell over dqlite's wire protocol, {Install.Describe()}";
}
