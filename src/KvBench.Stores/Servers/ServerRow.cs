using System.Diagnostics;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// What every server row shares: where its server is (<see cref="ServerStoreOptions.Endpoint"/>, the row's environment
/// variable, or the server KvBench started), how KvBench runs its own (installed when first needed, from Debian's
/// packages or KvBench's .NET tool manifest, see <see cref="ServerInstall"/>; a plain process on a free loopback port in
/// a scratch data directory, one per durability setting where the setting is the server's and not the session's), and
/// when the row can be had here. Each row says how its server is initialised, started and asked whether it answers, and
/// opens its adapter on an endpoint.
/// </summary>
public abstract class ServerRow : StoreRow
{
    private readonly string _clientPackage;

    private protected ServerRow(string name, StoreCapabilities declared, string clientPackage, string debianPackage, string endpointVariable)
        : this(name, declared, clientPackage, new DebianServerPackage(debianPackage), endpointVariable)
    {
    }

    private protected ServerRow(string name, StoreCapabilities declared, string clientPackage, ServerInstall install, string endpointVariable)
        : base(name, declared)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(clientPackage);
        ArgumentNullException.ThrowIfNull(install);
        ArgumentException.ThrowIfNullOrWhiteSpace(endpointVariable);
        _clientPackage = clientPackage;
        Install = install;
        EndpointVariable = endpointVariable;
        Servers = new RowServers(this);
    }

    /// <summary>
    /// The embedded row whose engine this server stores in, for the line that sets the two side by side: what separates
    /// their rates is then mostly what the server and the network cost a call. <see langword="null"/> (the default) for
    /// none.
    /// </summary>
    public virtual string? InProcessLineage => null;

    /// <summary>The package that holds the server (a Debian package, or a .NET tool), installed when the row's server is first needed.</summary>
    public string ServerPackage => Install.Package;

    /// <summary>Where the server comes from, and how KvBench installs it.</summary>
    internal ServerInstall Install { get; }

    /// <summary>
    /// The environment variable that points the row at a server of the user's own (<c>host:port</c> or a connection
    /// string, as <see cref="ServerStoreOptions.Endpoint"/>); when set, KvBench starts no server for the row.
    /// </summary>
    public string EndpointVariable { get; }

    /// <summary>
    /// Whether the row's server runs and where: the servers this process runs for the row (shared by the suites that
    /// use it at once, or one caller's alone), and the one lookup of the server its stores open on.
    /// </summary>
    internal RowServers Servers { get; }

    /// <summary>
    /// The server this process runs for the row, started once however many suites ask for it at once, or nothing when
    /// <see cref="EndpointVariable"/> points at a server of the user's own.
    /// </summary>
    public override RowHost CreateHost() => Servers.Lease();

    /// <summary>The server a user pointed the row at through <see cref="EndpointVariable"/>, or <see langword="null"/>.</summary>
    public string? UserEndpoint => Servers.UserEndpoint;

    /// <summary>
    /// The durability settings of the servers KvBench runs for the row, one server each: a setting the server holds for
    /// every session (Redis' appendfsync, InnoDB's flush at commit) needs a server per tier, so that two stores open at
    /// two tiers never change each other's; a session's own setting (PostgreSQL's synchronous_commit) lets one server
    /// serve both.
    /// </summary>
    internal abstract IReadOnlyList<DurabilityTiers> ServerTiers { get; }

    /// <summary>
    /// The server's own setting that is <paramref name="durability"/>, and what the server's documentation promises a
    /// write acknowledged at it.
    /// </summary>
    public abstract ServerTierPromise Promise(Durability durability);

    /// <summary>
    /// How far back a crash of the server's process may lose acknowledged writes at <paramref name="durability"/>, where
    /// the row's setting keeps less than the tier means for every other row (a killed process loses nothing
    /// acknowledged); <see langword="null"/> where it keeps the tier's meaning.
    /// </summary>
    public TimeSpan? WeakerThanTier(Durability durability) => Promise(durability).MayLose is var span && span > TimeSpan.Zero ? span : null;

    /// <summary>
    /// What KvBench's kill rounds found the row's server to lose of acknowledged writes at <paramref name="durability"/>
    /// against its own documentation, in a few words for the tables' Acknowledged column, or <see langword="null"/> where
    /// nothing is known. A row with a known loss is named by it in every table, its kill rounds show the loss as
    /// measured, and the loss is not a new failure of each run.
    /// </summary>
    public virtual string? KnownLoss(Durability durability) => null;

    /// <summary>
    /// Why a power cut under the row's server on a FUSE file system (KvBench's power-cut file system) would not test the
    /// row as it runs on a disk, or <see langword="null"/> when it would: the power-loss rounds then leave the row out.
    /// </summary>
    public virtual string? PowerCutNotModelled => null;

    /// <summary>
    /// The signal that stops KvBench's server cleanly before its process tree is killed, or <see langword="null"/> when
    /// a kill leaves nothing behind (the data directory is deleted either way).
    /// </summary>
    internal virtual int? StopSignal => null;

    /// <summary>How long KvBench's server may take to answer after it started.</summary>
    internal virtual TimeSpan ReadyTimeout => TimeSpan.FromSeconds(60);

    /// <summary>
    /// What KvBench runs for the row at <paramref name="tiers"/>, not yet started, its data directory to be made in
    /// <paramref name="dataParent"/> (default: under the system temp folder). Default: one server process
    /// (<see cref="InitializeData"/>, <see cref="ServerStartInfo"/>, <see cref="AnswersAsync"/>); a cluster row says
    /// how its members start.
    /// </summary>
    internal virtual ServerProcesses CreateServer(DurabilityTiers tiers, string? dataParent = null) => new OneServer(this, tiers, dataParent);

    /// <summary>
    /// Whether the row's server is one process (<see cref="OneServer"/>), which a server kill round kills and starts
    /// again on its data directory; a cluster's members are killed by its own fault test instead.
    /// </summary>
    public virtual bool IsOneProcess => true;

    /// <summary>
    /// How the row's data is replicated, in a few words for the tables, so no reader compares a replicated write with a
    /// local one unawares. Default: none, one server.
    /// </summary>
    public virtual string Replication => "none (one server)";

    /// <summary>
    /// Creates a data directory at <paramref name="dataDirectory"/> (which does not exist yet; its parent lets every
    /// user create one) for a server at <paramref name="tiers"/>, owned by the user the server runs as.
    /// </summary>
    internal abstract void InitializeData(string dataDirectory, DurabilityTiers tiers);

    /// <summary>The command that runs the server on loopback at <paramref name="port"/>, in the foreground.</summary>
    internal abstract ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers);

    /// <summary>Whether the server at <paramref name="endpoint"/> answers yet; asked until it does.</summary>
    internal abstract Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken);

    /// <summary>
    /// <paramref name="options"/> with reads that do not ask a quorum, where the row offers such reads (etcd's
    /// serializable reads: answered by whichever member a request reaches, possibly stale), else <see langword="null"/>.
    /// Default: none.
    /// </summary>
    public virtual ServerStoreOptions? WithRelaxedReads(ServerStoreOptions options) => null;

    /// <summary>
    /// Whether the row's own reads are linearizable: each sees every write acknowledged before it began (a server of one,
    /// etcd's reads through the leader's read index). Default: yes. A row whose leader answers from what it has applied
    /// without confirming it still leads says no: a leader deposed without knowing it yet may answer stale, which a
    /// cluster fault run counts rather than fails.
    /// </summary>
    public virtual bool LinearizableReads => true;

    /// <summary>
    /// For a row that runs a cluster, what its own reads ask of the cluster, as the cluster tables explain it; else
    /// <see langword="null"/> (the default).
    /// </summary>
    public virtual string? ClusterReads => null;

    /// <summary>
    /// For a cluster row that offers reads without a quorum (<see cref="WithRelaxedReads"/>), what they ask, as the
    /// cluster tables explain it; else <see langword="null"/> (the default).
    /// </summary>
    public virtual string? ClusterRelaxedReads => null;

    /// <summary>
    /// The server's own benchmark tool, which KvBench runs against the row's server beside the row, or
    /// <see langword="null"/> when the row has none. Default: none.
    /// </summary>
    public virtual ServerBenchmark? OwnBenchmark => null;

    /// <summary>
    /// Where the row's server for <paramref name="durability"/> is now: the user's (<see cref="EndpointVariable"/>), the one
    /// this process runs (<see cref="CreateHost"/>), the one the process that started this one runs, or the one
    /// <c>kvbench servers up</c> runs; <see langword="null"/> when none is. <see cref="RowServers.EndpointFor"/> says how.
    /// </summary>
    public string? EndpointFor(Durability durability) => Servers.EndpointFor(durability);

    /// <summary>
    /// A connection to the server at <paramref name="endpoint"/> through the row's own client, for timing round trips
    /// that ask the server for nothing: what the loopback and the client add to every call of the row.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="endpoint"/> is neither <c>host:port</c> nor the client's connection string.</exception>
    public IServerPing OpenPing(string endpoint)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(endpoint);
        return OpenPingCore(endpoint);
    }

    /// <summary>Opens <see cref="OpenPing"/>'s connection with the row's client.</summary>
    private protected abstract IServerPing OpenPingCore(string endpoint);

    /// <summary>An explicit endpoint needs nothing installed here; otherwise the row's own availability.</summary>
    private protected override string? UnavailableReasonFor(StoreOptions options) =>
        options is ServerStoreOptions { Endpoint: { Length: > 0 } } ? null : UnavailableReason;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options)
    {
        ServerStoreOptions serverOptions = ServerStoreOptions.From(options);
        string endpoint = serverOptions.Endpoint ?? EndpointFor(options.Durability)
            ?? throw new StoreUnavailableException(
                Name,
                $"no server runs for it: start KvBench's with `kvbench servers up`, or point it at one with " +
                    $"{EndpointVariable} or --endpoint");
        return OpenAdapter(serverOptions, endpoint, ServerStoreName.Of(options.Directory));
    }

    /// <summary>
    /// Opens the adapter on the server at <paramref name="endpoint"/>, on the store named <paramref name="storeName"/>
    /// there. The adapter reads the server's durability setting back and refuses a tier the server is not at
    /// (<see cref="DurabilityNotOfferedException"/>), and answers a read-only or secondary open of a store the server
    /// does not hold with <see cref="StoreNotFoundException"/>.
    /// </summary>
    private protected abstract IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName);

    /// <summary>The store lives on the server, which the adapter asks (it knows where the server is); the directory holds nothing.</summary>
    private protected override bool HoldsStore(string directory) => true;

    private protected override string? CheckAvailability() =>
        UserEndpoint is null && Install.WhyNotInstallable() is { } reason
            ? $"its server is not installed and cannot be installed here: {reason}"
            : null;

    /// <summary>The client package, and the server's package (what KvBench starts; a user's own server may run another version).</summary>
    private protected override string DescribeEngine() => $"{_clientPackage} {PackageVersion.Of(_clientPackage)}, {Install.Describe()}";
}
