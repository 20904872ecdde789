using System.Diagnostics;
using System.Net.Sockets;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// The processes of one server KvBench runs for a row at one set of tiers, and everything that happens to them: one
/// server process (<see cref="OneServer"/>) or a cluster's members (one subclass per cluster row), each a process on loopback with
/// two free ports and a data directory below the server's; started together and ready once the row says the server
/// answers (<see cref="ServerRow.AnswersAsync"/>); a member killed with SIGKILL, paused with SIGSTOP and brought back
/// by its index, as a fault test does; disposed, a paused member resumed, the row's stop signal sent, every process
/// tree killed and the data deleted. Who runs it, and for whom, is <see cref="RowServers"/>'s to say.
/// </summary>
/// <param name="row">The row the server serves.</param>
/// <param name="tiers">The tiers it serves.</param>
/// <param name="members">How many processes it runs.</param>
/// <param name="dataParent">The folder its data directory is made in; default (<see langword="null"/>): <see cref="ServerDirectories.Root"/>.</param>
internal abstract class ServerProcesses(ServerRow row, DurabilityTiers tiers, int members, string? dataParent) : IAsyncDisposable
{
    /// <summary>How long a server has to stop on the row's stop signal before its process tree is killed.</summary>
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(15);

    private readonly bool[] _paused = new bool[members];
    private RowHostGroup? _group;
    private ProcessRowHost[] _processes = [];
    private string? _dataDirectory;
    private string? _endpoint;
    private string[] _memberEndpoints = [];

    /// <summary>The row the server serves.</summary>
    public ServerRow Row { get; } = row;

    /// <summary>The durability tiers the server is set up for.</summary>
    public DurabilityTiers Tiers => tiers;

    /// <summary>Where a client reaches it once started: <c>127.0.0.1:port</c>, or a cluster's members' comma-separated in member order.</summary>
    public string? Endpoint => _endpoint;

    /// <summary>The folder that holds everything it writes (each member's in a folder of its own below it) until it is disposed.</summary>
    public string? DataDirectory => _dataDirectory;

    /// <summary>The process ids of its members that run now, in member order; empty before the start and after the dispose.</summary>
    public IReadOnlyList<int> ProcessIds => [.. Volatile.Read(ref _processes).Select(process => process.ProcessId).OfType<int>()];

    /// <summary>How many members it has: 1 for a server of one process.</summary>
    public int MemberCount => members;

    /// <summary>Each member's client endpoint, in member order; empty before the start and after the dispose.</summary>
    protected IReadOnlyList<string> MemberEndpoints => _memberEndpoints;

    /// <summary>What the server was waiting for when it was not ready in time, as "its members at ENDPOINT" go on: "had no leader".</summary>
    protected abstract string NotReady { get; }

    /// <summary>The index of the member that leads now, asked of the members that answer within <paramref name="cancellationToken"/>'s time.</summary>
    /// <exception cref="InvalidOperationException">No member answering knew of a leader.</exception>
    public abstract Task<int> LeaderAsync(CancellationToken cancellationToken);

    /// <summary>The process id of member <paramref name="member"/> while it runs, or <see langword="null"/>.</summary>
    public int? MemberProcessId(int member) => Volatile.Read(ref _processes) is { } processes && member < processes.Length ? processes[member].ProcessId : null;

    /// <summary>Installs the row's server when missing, starts every member, and returns once the server answers.</summary>
    /// <exception cref="StoreUnavailableException">The server cannot be installed, or did not start or answer in time; nothing of it is left.</exception>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        await Row.Install.EnsureInstalledAsync(Row.Name).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(Row.Name, tiers, dataParent);
        try
        {
            string dataDirectory = _dataDirectory;
            await Task.Run(() => Row.InitializeData(dataDirectory, tiers), cancellationToken).ConfigureAwait(false);
            IReadOnlyList<ClusterMember> created = CreateMembers(_dataDirectory, LoopbackPorts.Free(2 * members));
            ProcessRowHost[] processes = [.. created.Select(member => member.Process)];
            Volatile.Write(ref _processes, processes);
            _memberEndpoints = [.. created.Select(member => member.Endpoint)];
            _endpoint = string.Join(',', _memberEndpoints);

            // Each member is started once it is up on its own (a cluster's before it has peers); the server is ready once the row says it answers.
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

    /// <summary>
    /// Faults member <paramref name="member"/>: <see cref="MemberFault.Kill"/> kills its whole process tree with SIGKILL,
    /// as a crash ends it, and waits until it is gone, keeping its data for <see cref="EndFaultAsync"/>;
    /// <see cref="MemberFault.Pause"/> stops it with SIGSTOP.
    /// </summary>
    /// <returns>The <see cref="Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="member"/> is no member's index.</exception>
    /// <exception cref="InvalidOperationException">The member does not run.</exception>
    public async Task<long> FaultAsync(int member, MemberFault fault)
    {
        ProcessRowHost process = Member(member);
        if (process.ProcessId is not { } pid)
        {
            throw new InvalidOperationException($"{Describe(member)} does not run, so it cannot be {(fault == MemberFault.Kill ? "killed" : "paused")}.");
        }

        long faultedAt = Stopwatch.GetTimestamp();
        if (fault == MemberFault.Kill)
        {
            // ProcessRowHost ends the member's process tree with SIGKILL and waits until it is gone.
            await process.DisposeAsync().ConfigureAwait(false);
        }
        else
        {
            _paused[member] = Signals.Send(pid, Signals.Stop)
                ? true
                : throw new InvalidOperationException($"{Describe(member)} does not run, so it cannot be paused.");
        }

        return faultedAt;
    }

    /// <summary>
    /// Ends <paramref name="fault"/> on member <paramref name="member"/>: starts a killed member again on its data and
    /// ports and waits until it is up (a server of one: until it answers; a cluster's member: until it listens), or
    /// resumes a paused one.
    /// </summary>
    /// <exception cref="InvalidOperationException">A member to start again runs.</exception>
    public async Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default)
    {
        ProcessRowHost process = Member(member);
        if (fault == MemberFault.Pause)
        {
            Resume(member);
            return;
        }

        if (process.ProcessId is not null)
        {
            throw new InvalidOperationException($"{Describe(member)} restarts only after it was killed.");
        }

        await process.StartAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Resumes any paused member, sends each the row's stop signal (<see cref="ServerRow.StopSignal"/>) and waits a while
    /// for it to go, kills whatever still runs of every member's process tree, and deletes the data.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        ProcessRowHost[] processes = Volatile.Read(ref _processes);
        for (int member = 0; member < _paused.Length; member++)
        {
            Resume(member);
        }

        if (Row.StopSignal is { } signal)
        {
            int[] stopping = [.. processes.Select(process => process.ProcessId).OfType<int>().Where(pid => Signals.Send(pid, signal))];
            foreach (int pid in stopping)
            {
                await Signals.WaitUntilGoneAsync(pid, s_stopTimeout).ConfigureAwait(false);
            }
        }

        // Kills whatever still runs of the members' process trees (everything, for a row without a stop signal).
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

    /// <summary>A member's process, started by <paramref name="startInfo"/> and up once the row says it answers on <paramref name="clientPort"/>.</summary>
    protected ClusterMember MemberAnsweringOn(int clientPort, ProcessStartInfo startInfo)
    {
        string endpoint = $"127.0.0.1:{clientPort}";
        return new(new ProcessRowHost(Row.Name, startInfo, ready => Row.AnswersAsync(endpoint, ready), Row.ReadyTimeout), endpoint);
    }

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

    private ProcessRowHost Member(int member)
    {
        ProcessRowHost[] processes = Volatile.Read(ref _processes);
        ArgumentOutOfRangeException.ThrowIfNegative(member);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(member, members);
        return member < processes.Length
            ? processes[member]
            : throw new InvalidOperationException($"The server of {Row.Name} has not started.");
    }

    private string Describe(int member) => members == 1 ? $"The server of {Row.Name}" : $"Member {member} of {Row.Name}'s cluster";

    private void Resume(int member)
    {
        if (_paused[member] && MemberProcessId(member) is { } pid)
        {
            _ = Signals.Send(pid, Signals.Continue);
        }

        _paused[member] = false;
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
            string who = members == 1 ? "its server" : $"its {members} members";
            throw new StoreUnavailableException(Row.Name, $"{who} at {endpoint} {NotReady} within {Row.ReadyTimeout.TotalSeconds:0} s");
        }
    }
}

/// <summary>One member of a <see cref="ServerProcesses"/>: its process and its client endpoint.</summary>
internal sealed record ClusterMember(ProcessRowHost Process, string Endpoint);

/// <summary>
/// The server of a row that runs one process (<see cref="ServerRow.IsOneProcess"/>): its only member, started by
/// <see cref="ServerRow.ServerStartInfo"/> and up once it answers; it leads itself.
/// </summary>
internal sealed class OneServer(ServerRow row, DurabilityTiers tiers, string? dataParent) : ServerProcesses(row, tiers, 1, dataParent)
{
    protected override string NotReady => "did not answer";

    public override Task<int> LeaderAsync(CancellationToken cancellationToken) => Task.FromResult(0);

    protected override IReadOnlyList<ClusterMember> CreateMembers(string dataDirectory, int[] ports) =>
        [MemberAnsweringOn(ports[0], Row.ServerStartInfo(dataDirectory, ports[0], Tiers))];
}
