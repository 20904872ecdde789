using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>How a member of a cluster is faulted.</summary>
public enum MemberFault
{
    /// <summary>SIGKILL, and the member started again on its data when the fault ends.</summary>
    Kill,

    /// <summary>SIGSTOP, and SIGCONT when the fault ends: a member that neither answers nor knows it was away, as a partition leaves it.</summary>
    Pause,
}

/// <summary>
/// A cluster KvBench runs for one row for one caller alone, apart from the clusters suites share (faulting a shared one
/// would fail every suite that uses it): a fault test kills or pauses its members one at a time and brings them back.
/// Stopped, every member's process gone and its data deleted, when disposed; a paused member is resumed first.
/// </summary>
public sealed class PrivateCluster : IFaultableServer
{
    private readonly RunningCluster _cluster;
    private readonly bool[] _paused;

    private PrivateCluster(ServerRow row, Durability durability, RunningCluster cluster)
    {
        Row = row;
        Durability = durability;
        _cluster = cluster;
        _paused = new bool[cluster.MemberCount];
    }

    /// <summary>The row the cluster is for.</summary>
    public ServerRow Row { get; }

    /// <summary>The tier the cluster is set up for.</summary>
    public Durability Durability { get; }

    /// <summary>Every member's client endpoint, comma-separated, as the row's <c>--endpoint</c> takes them.</summary>
    public string Endpoint => _cluster.Endpoint ?? throw new InvalidOperationException($"The cluster of {Row.Name} has not started.");

    /// <summary>How many members it has.</summary>
    public int MemberCount => _cluster.MemberCount;

    /// <summary>Installs the row's server when missing and starts a cluster of its own.</summary>
    /// <exception cref="ArgumentException"><paramref name="rowName"/> is no server row.</exception>
    /// <exception cref="NotSupportedException">The row runs one server process, not a cluster.</exception>
    /// <exception cref="InvalidOperationException">
    /// The row's environment variable points it at a cluster of the user's own, which KvBench does not fault.
    /// </exception>
    /// <exception cref="StoreUnavailableException">The server cannot be installed, or the cluster did not start.</exception>
    public static async Task<PrivateCluster> StartAsync(string rowName, CancellationToken cancellationToken = default)
    {
        ServerRow row = StoreCatalog.ServerRowNamed(rowName);
        if (row.IsOneProcess)
        {
            throw new NotSupportedException(
                $"{row.Name} runs one server process, not a cluster; its server kill rounds (kvbench crash --kill Server) fault it.");
        }

        if (row.UserEndpoint is { } endpoint)
        {
            throw new InvalidOperationException(
                $"{row.EndpointVariable} points {row.Name} at a cluster of your own ({endpoint}); KvBench faults " +
                    $"only a cluster it started itself. Unset {row.EndpointVariable} to fault KvBench's own.");
        }

        if (row.UnavailableReason is { } reason)
        {
            throw new StoreUnavailableException(row.Name, reason);
        }

        DurabilityTiers tiers = row.ServerTiers[0];
        var cluster = (RunningCluster)row.CreateServer(tiers);
        await cluster.StartAsync(cancellationToken).ConfigureAwait(false);
        // Synced where the row offers it: the test asks whether the cluster keeps what it acknowledged.
        return new PrivateCluster(row, row.OpensAt(Durability.Synced) ? Durability.Synced : Durability.Buffered, cluster);
    }

    /// <summary>The index of the member that leads now.</summary>
    /// <exception cref="InvalidOperationException">No member that answered named a leader.</exception>
    public Task<int> LeaderAsync(CancellationToken cancellationToken = default) => _cluster.LeaderAsync(cancellationToken);

    /// <summary>Faults member <paramref name="member"/> by <paramref name="fault"/>.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="member"/> is no member's index.</exception>
    public async Task<long> FaultAsync(int member, MemberFault fault)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(member);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(member, MemberCount);
        if (fault == MemberFault.Kill)
        {
            return await _cluster.KillMemberAsync(member).ConfigureAwait(false);
        }

        long pausedAt = System.Diagnostics.Stopwatch.GetTimestamp();
        _paused[member] = _cluster.SignalMember(member, Signals.Stop)
            ? true
            : throw new InvalidOperationException($"Member {member} of {Row.Name}'s cluster does not run, so it cannot be paused.");
        return pausedAt;
    }

    /// <summary>Ends <paramref name="fault"/> on member <paramref name="member"/>: starts a killed member again on its data, resumes a paused one.</summary>
    public async Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default)
    {
        if (fault == MemberFault.Kill)
        {
            await _cluster.RestartMemberAsync(member, cancellationToken).ConfigureAwait(false);
        }
        else if (_paused[member])
        {
            _ = _cluster.SignalMember(member, Signals.Continue);
            _paused[member] = false;
        }
    }

    /// <summary>Resumes any paused member, then stops the cluster and deletes its data.</summary>
    public async ValueTask DisposeAsync()
    {
        for (int member = 0; member < _paused.Length; member++)
        {
            if (_paused[member])
            {
                _ = _cluster.SignalMember(member, Signals.Continue);
                _paused[member] = false;
            }
        }

        await _cluster.DisposeAsync().ConfigureAwait(false);
    }
}
