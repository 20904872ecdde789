using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// A server or cluster KvBench runs for one row for one caller alone, apart from the servers suites share through
/// <see cref="StoreRow.CreateHost"/> (killing or pausing a shared one would fail every suite that uses it): a crash round
/// kills a server of one process with SIGKILL and starts it again on the same data directory and port, where it
/// recovers from what the kill left; a cluster's fault test kills or pauses its members one at a time and brings them
/// back. Stopped, every process gone and its data deleted, when disposed; a paused member is resumed first.
/// </summary>
public sealed class PrivateServer : IFaultableServer
{
    private readonly ServerProcesses _server;

    private PrivateServer(Durability durability, ServerProcesses server)
    {
        Durability = durability;
        _server = server;
    }

    /// <summary>The row the server is for.</summary>
    public ServerRow Row => _server.Row;

    /// <summary>The tier the server is set up for.</summary>
    public Durability Durability { get; }

    /// <summary><c>127.0.0.1:port</c>, or every member's comma-separated, as the row's <c>--endpoint</c> takes them; the same after every restart.</summary>
    public string Endpoint => _server.Endpoint ?? throw new InvalidOperationException($"The server of {Row.Name} has not started.");

    /// <summary>The process id of the server (a cluster's first member) while it runs, or <see langword="null"/> between a kill and its restart.</summary>
    public int? ProcessId => _server.MemberProcessId(0);

    /// <summary>How many members it has: 1 for a server of one process, which leads itself.</summary>
    public int MemberCount => _server.MemberCount;

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

        return new PrivateServer(durability, await row.Servers.StartPrivateAsync(durability, dataParent, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>
    /// Installs the row's server when missing and starts a cluster of its own, at Synced where the row offers it (the
    /// fault test asks whether the cluster keeps what it acknowledged).
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="rowName"/> is no server row.</exception>
    /// <exception cref="NotSupportedException">The row runs one server process, not a cluster.</exception>
    /// <exception cref="InvalidOperationException">
    /// The row's environment variable points it at a cluster of the user's own, which KvBench does not fault.
    /// </exception>
    /// <exception cref="StoreUnavailableException">The server cannot be installed, or the cluster did not start.</exception>
    public static async Task<PrivateServer> StartClusterAsync(string rowName, CancellationToken cancellationToken = default)
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

        Durability durability = row.OpensAt(Durability.Synced) ? Durability.Synced : Durability.Buffered;
        return new PrivateServer(durability, await row.Servers.StartPrivateAsync(durability, dataParent: null, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>
    /// Kills the server's whole process tree (a cluster's first member's) with SIGKILL; its data directory stays for
    /// <see cref="RestartAsync"/>.
    /// </summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="InvalidOperationException">The server does not run.</exception>
    public Task<long> KillAsync() => _server.FaultAsync(0, MemberFault.Kill);

    /// <summary>Starts the server again on its data directory and port after <see cref="KillAsync"/>, and waits until it is up.</summary>
    /// <exception cref="InvalidOperationException">The server runs.</exception>
    public Task RestartAsync(CancellationToken cancellationToken = default) => _server.EndFaultAsync(0, MemberFault.Kill, cancellationToken);

    /// <summary>The index of the member that leads now: 0 for a server of one process.</summary>
    /// <exception cref="InvalidOperationException">No member that answered named a leader.</exception>
    public Task<int> LeaderAsync(CancellationToken cancellationToken = default) => _server.LeaderAsync(cancellationToken);

    /// <summary>Faults member <paramref name="member"/> by <paramref name="fault"/>.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="member"/> is no member's index.</exception>
    /// <exception cref="InvalidOperationException">The member does not run.</exception>
    public Task<long> FaultAsync(int member, MemberFault fault) => _server.FaultAsync(member, fault);

    /// <summary>Ends <paramref name="fault"/> on member <paramref name="member"/>: starts a killed member again on its data, resumes a paused one.</summary>
    public Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default) =>
        _server.EndFaultAsync(member, fault, cancellationToken);

    /// <summary>Resumes any paused member, then stops the server and deletes its data.</summary>
    public ValueTask DisposeAsync() => _server.DisposeAsync();
}
