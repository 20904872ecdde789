using System.Diagnostics;
using System.Net.Sockets;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// What every cluster KvBench runs as processes of its own shares (each member a process): members on loopback,
/// two free ports each and a data directory each below the cluster's, started together and ready once the row says the
/// cluster answers (<see cref="ServerRow.AnswersAsync"/>); a member is killed, restarted on its data or signalled by
/// its index; disposed, every member is killed and the data deleted. A cluster says only how its members start
/// (<see cref="CreateMembers"/>) and how it finds its leader.
/// </summary>
/// <param name="row">The row the cluster serves.</param>
/// <param name="tiers">The tiers it serves.</param>
/// <param name="members">How many members it runs.</param>
internal abstract class ProcessCluster(ServerRow row, DurabilityTiers tiers, int members) : RunningCluster
{
    private RowHostGroup? _group;
    private ProcessRowHost[] _processes = [];
    private string? _dataDirectory;
    private string? _endpoint;
    private string[] _memberEndpoints = [];

    public override DurabilityTiers Tiers => tiers;

    /// <summary>The row the cluster serves.</summary>
    protected ServerRow Row { get; } = row;

    /// <summary>The members' client endpoints, <c>127.0.0.1:port</c> each, comma-separated in member order.</summary>
    public override string? Endpoint => _endpoint;

    public override string? DataDirectory => _dataDirectory;

    public override IReadOnlyList<int> ProcessIds => [.. Volatile.Read(ref _processes).Select(process => process.ProcessId).OfType<int>()];

    public override int MemberCount => members;

    /// <summary>Each member's client endpoint, in member order; empty before the start and after the dispose.</summary>
    protected IReadOnlyList<string> MemberEndpoints => _memberEndpoints;

    /// <summary>What the cluster was waiting for when it was not ready in time, as "its members at ENDPOINT" go on: "had no leader".</summary>
    protected abstract string NotReady { get; }

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
        await Row.Install.EnsureInstalledAsync(Row.Name).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(Row.Name, tiers);
        try
        {
            Row.InitializeData(_dataDirectory, tiers);
            IReadOnlyList<ClusterMember> created = CreateMembers(_dataDirectory, LoopbackPorts.Free(2 * members));
            ProcessRowHost[] processes = [.. created.Select(member => member.Process)];
            Volatile.Write(ref _processes, processes);
            _memberEndpoints = [.. created.Select(member => member.Endpoint)];
            _endpoint = string.Join(',', _memberEndpoints);

            // Each member is started once it listens, before it has peers; the cluster is ready once the row says it answers.
            _group = new RowHostGroup(processes);
            await _group.StartAsync(cancellationToken).ConfigureAwait(false);
            await WaitUntilReadyAsync(_endpoint, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public override async ValueTask DisposeAsync()
    {
        // A kill leaves nothing a member needs: the data directory goes with it.
        if (Interlocked.Exchange(ref _group, null) is { } group)
        {
            await group.DisposeAsync().ConfigureAwait(false);
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
    /// The members, in member order, each with its data directory below <paramref name="dataDirectory"/> and the ports
    /// <c>ports[2 * index]</c> (the one clients use) and <c>ports[2 * index + 1]</c>.
    /// </summary>
    protected abstract IReadOnlyList<ClusterMember> CreateMembers(string dataDirectory, int[] ports);

    /// <summary>A member's process, started by <paramref name="startInfo"/> and up once it accepts connections on <paramref name="clientPort"/>.</summary>
    protected ClusterMember MemberListeningOn(int clientPort, ProcessStartInfo startInfo) =>
        new(new ProcessRowHost(Row.Name, startInfo, ready => ListensAsync(clientPort, ready), Row.ReadyTimeout), $"127.0.0.1:{clientPort}");

    /// <summary>Whether the port accepts a connection: a member listens before it has peers.</summary>
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

    private async Task WaitUntilReadyAsync(string endpoint, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Row.ReadyTimeout);
        try
        {
            while (!await Row.AnswersAsync(endpoint, timeout.Token).ConfigureAwait(false))
            {
                await Task.Delay(TimeSpan.FromMilliseconds(50), timeout.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new StoreUnavailableException(Row.Name, $"its {members} members at {endpoint} {NotReady} within {Row.ReadyTimeout.TotalSeconds:0} s");
        }
    }
}

/// <summary>One member of a <see cref="ProcessCluster"/>: its process and its client endpoint.</summary>
internal sealed record ClusterMember(ProcessRowHost Process, string Endpoint);
