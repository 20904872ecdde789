using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// A server KvBench runs for one row and tier for one caller alone, apart from the servers suites share through
/// <see cref="StoreRow.CreateHost"/> (killing a shared one would fail every suite that uses it): a crash round kills it
/// with SIGKILL and starts it again on the same data directory and port, where it recovers from what the kill left.
/// Stopped and its data deleted when disposed.
/// </summary>
public sealed class PrivateServer : IFaultableServer
{
    private readonly ServerInstance _instance;
    private bool _paused;

    private PrivateServer(ServerRow row, Durability durability, ServerInstance instance)
    {
        Row = row;
        Durability = durability;
        _instance = instance;
    }

    /// <summary>The row the server is for.</summary>
    public ServerRow Row { get; }

    /// <summary>The tier the server is set up for.</summary>
    public Durability Durability { get; }

    /// <summary><c>127.0.0.1:port</c>, the same after every restart.</summary>
    public string Endpoint => _instance.Endpoint ?? throw new InvalidOperationException($"The server of {Row.Name} has not started.");

    /// <summary>The server's process id while it runs, or <see langword="null"/> between a kill and its restart.</summary>
    public int? ProcessId => _instance.ProcessId;

    /// <summary>Installs the row's server when missing and starts one of its own for <paramref name="durability"/>.</summary>
    /// <param name="rowName">A one-process server row.</param>
    /// <param name="durability">The tier the server is set up for.</param>
    /// <param name="dataParent">
    /// The folder the server's data directory is made in, such as a file system under test (the power-cut mount);
    /// default (<see langword="null"/>): a folder under the system temp folder.
    /// </param>
    /// <param name="cancellationToken">Cancels the install and the start.</param>
    /// <exception cref="ArgumentException"><paramref name="rowName"/> is no server row.</exception>
    /// <exception cref="InvalidOperationException">
    /// The row's environment variable points it at a server of the user's own, which KvBench neither kills nor
    /// replaces with one of its own behind the user's back.
    /// </exception>
    /// <exception cref="StoreUnavailableException">The server cannot be installed or did not start.</exception>
    /// <exception cref="NotSupportedException">The row runs a cluster, not one server process.</exception>
    public static async Task<PrivateServer> StartAsync(
        string rowName, Durability durability, string? dataParent = null, CancellationToken cancellationToken = default)
    {
        ServerRow row = StoreCatalog.ServerRowNamed(rowName);
        if (row.UserEndpoint is { } endpoint)
        {
            throw new InvalidOperationException(
                $"{row.EndpointVariable} points {row.Name} at a server of your own ({endpoint}); KvBench kills only " +
                    $"a server it started itself. Unset {row.EndpointVariable} to kill KvBench's own.");
        }

        if (!row.IsOneProcess)
        {
            throw new NotSupportedException(
                $"{row.Name} runs a cluster, not one server process that a kill round can kill and start again on " +
                    $"its data directory; its members are killed by the cluster's own fault test.");
        }

        if (row.UnavailableReason is { } reason)
        {
            throw new StoreUnavailableException(row.Name, reason);
        }

        DurabilityTiers tiers = row.ServerTiers.FirstOrDefault(offered => offered.Offers(durability));
        if (tiers == DurabilityTiers.None)
        {
            throw new DurabilityNotOfferedException(row.Name, durability, row.Declared.Durability);
        }

        var instance = new ServerInstance(row, tiers, dataParent);
        await instance.StartAsync(cancellationToken).ConfigureAwait(false);
        return new PrivateServer(row, durability, instance);
    }

    /// <summary>Kills the server's whole process tree with SIGKILL; its data directory stays for <see cref="RestartAsync"/>.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    public Task<long> KillAsync() => _instance.KillAsync();

    /// <summary>Starts the server again on its data directory and port and waits until it answers.</summary>
    public Task RestartAsync(CancellationToken cancellationToken = default) => _instance.RestartAsync(cancellationToken);

    /// <summary>One: the server itself.</summary>
    public int MemberCount => 1;

    /// <summary>The server leads itself: 0.</summary>
    public Task<int> LeaderAsync(CancellationToken cancellationToken = default) => Task.FromResult(0);

    /// <summary>Kills the server (<see cref="KillAsync"/>) or pauses it with SIGSTOP; <paramref name="member"/> must be 0.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="member"/> is not 0.</exception>
    /// <exception cref="InvalidOperationException">The server does not run.</exception>
    public async Task<long> FaultAsync(int member, MemberFault fault)
    {
        ArgumentOutOfRangeException.ThrowIfNotEqual(member, 0);
        if (fault == MemberFault.Kill)
        {
            return await KillAsync().ConfigureAwait(false);
        }

        long pausedAt = System.Diagnostics.Stopwatch.GetTimestamp();
        _paused = ProcessId is { } pid && Signals.Send(pid, Signals.Stop)
            ? true
            : throw new InvalidOperationException($"The server of {Row.Name} does not run, so it cannot be paused.");
        return pausedAt;
    }

    /// <summary>Starts a killed server again on its data directory and port (<see cref="RestartAsync"/>), or resumes a paused one.</summary>
    public async Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNotEqual(member, 0);
        if (fault == MemberFault.Kill)
        {
            await RestartAsync(cancellationToken).ConfigureAwait(false);
        }
        else
        {
            Resume();
        }
    }

    /// <summary>Resumes the server if it is paused, then stops it and deletes its data directory.</summary>
    public ValueTask DisposeAsync()
    {
        Resume();
        return _instance.DisposeAsync();
    }

    private void Resume()
    {
        if (_paused && ProcessId is { } pid)
        {
            _ = Signals.Send(pid, Signals.Continue);
        }

        _paused = false;
    }
}
