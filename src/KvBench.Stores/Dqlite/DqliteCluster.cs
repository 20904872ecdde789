using System.Diagnostics;
using System.Net.Sockets;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The dqlite cluster KvBench runs for the dqlite row: <see cref="Members"/> <c>dqlite-demo</c> nodes on loopback, each
/// with a dqlite port (<c>--db</c>, the one clients and peers use) and an HTTP port of its own (<c>--api</c>, which
/// KvBench does not use but the demo requires) and a data directory of its own below the cluster's. The first node
/// starts a cluster of one; the others join it (<c>--join</c>) and the demo's role management makes them voters.
/// Ready once the cluster lists every node as a voter. Disposed, every node is killed and the data deleted.
/// </summary>
/// <param name="row">The dqlite row.</param>
/// <param name="tiers">The tiers it serves.</param>
internal sealed class DqliteCluster(DqliteRow row, DurabilityTiers tiers) : RunningCluster
{
    /// <summary>Three: the fewest nodes that keep a quorum with one of them lost.</summary>
    public const int Members = 3;

    private const string Node = "/usr/bin/dqlite-demo";

    /// <summary>How long a member's answer to <c>.leader</c> is waited for: a paused member never answers.</summary>
    private static readonly TimeSpan s_leaderTimeout = TimeSpan.FromSeconds(2);

    private RowHostGroup? _members;
    private ProcessRowHost[] _processes = [];
    private string? _dataDirectory;
    private string? _endpoint;
    private string[] _memberEndpoints = [];

    public override DurabilityTiers Tiers => tiers;

    /// <summary>The dqlite addresses of the nodes, <c>127.0.0.1:port</c> each, comma-separated in member order.</summary>
    public override string? Endpoint => _endpoint;

    public override string? DataDirectory => _dataDirectory;

    public override IReadOnlyList<int> ProcessIds => [.. Volatile.Read(ref _processes).Select(process => process.ProcessId).OfType<int>()];

    public override int MemberCount => Members;

    /// <summary>
    /// Runs <paramref name="command"/> (a line of SQL or a dot command) through the dqlite shell on the cluster of
    /// <paramref name="endpoint"/>, and returns the lines it printed without the shell's prompts, or
    /// <see langword="null"/> when it failed or did not finish within <paramref name="timeout"/> (the shell waits
    /// forever for a leader where there is none).
    /// </summary>
    internal static string[]? Ask(string endpoint, string command, TimeSpan timeout)
    {
        (int exitCode, string output) = ServerCommand.Run(new ProcessStartInfo(DqliteShell.Program, ["-s", endpoint, DqliteRow.Database, command]), timeout);
        return exitCode == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) : null;
    }

    /// <summary>
    /// Each member is asked on its own which member leads (a member that is not the leader asks the one it names), so a
    /// paused member holds up only its own question; the leader is the member most of the answers name.
    /// </summary>
    public override async Task<int> LeaderAsync(CancellationToken cancellationToken)
    {
        string[] members = _memberEndpoints;
        string?[] answers = await Task.WhenAll(members.Select(member => Task.Run(() => Ask(member, ".leader", s_leaderTimeout) is [string leader] ? leader : null, cancellationToken))).ConfigureAwait(false);
        int found = answers.OfType<string>().GroupBy(answer => answer, StringComparer.Ordinal).OrderByDescending(named => named.Count())
            .Select(named => Array.IndexOf(members, named.Key)).FirstOrDefault(index => index >= 0, -1);
        return found >= 0
            ? found
            : throw new InvalidOperationException($"No member of {row.Name}'s cluster that answered named a member as its leader (answers: {string.Join(", ", answers.Select(answer => answer ?? "none"))}).");
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
            string first = $"127.0.0.1:{ports[0]}";
            ProcessRowHost[] processes = [.. Enumerable.Range(0, Members).Select(index =>
            {
                int dbPort = ports[2 * index];
                string directory = Path.Combine(_dataDirectory, $"node{index}");
                Directory.CreateDirectory(directory);
                List<string> arguments = ["--api", $"127.0.0.1:{ports[(2 * index) + 1]}", "--db", $"127.0.0.1:{dbPort}", "--dir", directory];
                if (index > 0)
                {
                    // Given again at a restart too, where the node finds its identity in its data and does not join anew.
                    arguments.AddRange(["--join", first]);
                }

                return new ProcessRowHost(row.Name, new ProcessStartInfo(Node, arguments), ready => ListensAsync(dbPort, ready), row.ReadyTimeout);
            })];
            Volatile.Write(ref _processes, processes);
            _memberEndpoints = [.. Enumerable.Range(0, Members).Select(index => $"127.0.0.1:{ports[2 * index]}")];
            _endpoint = string.Join(',', _memberEndpoints);

            // The first node is a cluster of one once it listens; the others join it in turn.
            _members = new RowHostGroup(processes);
            await _members.StartAsync(cancellationToken).ConfigureAwait(false);
            await WaitForVotersAsync(_endpoint, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public override async ValueTask DisposeAsync()
    {
        // A kill leaves nothing dqlite needs: the data directory goes with it.
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

    /// <summary>Whether the node's dqlite port accepts a connection: it listens before it has joined.</summary>
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

    private async Task WaitForVotersAsync(string endpoint, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(row.ReadyTimeout);
        try
        {
            while (!await row.AnswersAsync(endpoint, timeout.Token).ConfigureAwait(false))
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100), timeout.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new StoreUnavailableException(row.Name, $"its {Members} nodes at {endpoint} were not all voters within {row.ReadyTimeout.TotalSeconds:0} s");
        }
    }
}
