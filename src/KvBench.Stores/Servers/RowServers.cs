using System.Globalization;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// Whether a row's server runs and where, in one place: the one owner of the servers KvBench runs for the row in this
/// process, and the one lookup of the server a row's store opens on (<see cref="EndpointFor"/>).
/// </summary>
/// <remarks>
/// The servers it runs are of two kinds. The shared ones, one per entry of <see cref="ServerRow.ServerTiers"/>, run
/// while at least one lease (<see cref="Lease"/>) holds them: every suite of this process that uses the row at the same
/// time shares them (test classes run in parallel; the row is one object, so it can know only one server per tier).
/// The private ones (<see cref="StartPrivateAsync"/>) are one caller's alone, which a fault test kills, pauses and
/// starts again without failing the suites that share the others. Each server's processes, data and faults are its
/// <see cref="ServerProcesses"/>.
/// </remarks>
internal sealed class RowServers(ServerRow row)
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly Lock _holdersLock = new();
    private readonly HashSet<ServerLease> _holders = [];
    private ServerProcesses[] _shared = [];

    /// <summary>The server a user pointed the row at through <see cref="ServerRow.EndpointVariable"/>, or <see langword="null"/>.</summary>
    public string? UserEndpoint => Environment.GetEnvironmentVariable(row.EndpointVariable) is { Length: > 0 } endpoint ? endpoint : null;

    /// <summary>
    /// Where the row's server for <paramref name="durability"/> is now, looked for in this order: the user's own
    /// (<see cref="ServerRow.EndpointVariable"/>); the shared one this process runs (<see cref="Lease"/>); the one the
    /// process that started this one runs (<see cref="HostedVariable"/>); the one <c>kvbench servers up</c> runs
    /// (<see cref="PublishedServers"/>). <see langword="null"/> when none is.
    /// </summary>
    public string? EndpointFor(Durability durability) =>
        UserEndpoint
        ?? Shared(durability)?.Endpoint
        ?? HostedEndpoint(durability)
        ?? PublishedServers.Endpoint(row.Name, durability);

    /// <summary>
    /// A host that shares the row's servers: the first lease to start starts them, the last to stop stops them. Nothing
    /// when <see cref="ServerRow.EndpointVariable"/> points at a server of the user's own.
    /// </summary>
    public RowHost Lease() => UserEndpoint is null ? new ServerLease(this) : RowHost.None;

    /// <summary>The shared server that serves <paramref name="durability"/> while a lease holds it, or <see langword="null"/>.</summary>
    public ServerProcesses? Shared(Durability durability) =>
        Volatile.Read(ref _shared).FirstOrDefault(server => server.Tiers.Offers(durability));

    /// <summary>
    /// Starts a server of the row's for <paramref name="durability"/> that belongs to the caller alone, never shared;
    /// the caller disposes it.
    /// </summary>
    /// <param name="durability">The tier it serves; its setting is the row's first server setting that offers it.</param>
    /// <param name="dataParent">The folder its data directory is made in; default (<see langword="null"/>): under the system temp folder.</param>
    /// <param name="cancellationToken">Cancels the install and the start.</param>
    /// <exception cref="StoreUnavailableException">The server cannot be installed here, or did not start.</exception>
    /// <exception cref="DurabilityNotOfferedException">The row offers no server at <paramref name="durability"/>.</exception>
    public async Task<ServerProcesses> StartPrivateAsync(Durability durability, string? dataParent, CancellationToken cancellationToken)
    {
        if (row.UnavailableReason is { } reason)
        {
            throw new StoreUnavailableException(row.Name, reason);
        }

        DurabilityTiers tiers = row.ServerTiers.FirstOrDefault(offered => offered.Offers(durability));
        if (tiers == DurabilityTiers.None)
        {
            throw new DurabilityNotOfferedException(row.Name, durability, row.Declared.Durability);
        }

        ServerProcesses server = row.CreateServer(tiers, dataParent);
        await server.StartAsync(cancellationToken).ConfigureAwait(false);
        return server;
    }

    /// <summary>
    /// The variable through which a process that runs the row's shared server for <paramref name="durability"/> (a
    /// lease's, for example BenchmarkDotNet's host process) tells the processes it starts where that server listens;
    /// apart from <see cref="ServerRow.EndpointVariable"/>, which names a server of the user's own, so a server KvBench
    /// started is never taken for one it must not kill.
    /// </summary>
    public string HostedVariable(Durability durability) => $"{row.EndpointVariable}_HOSTED_{durability.ToString().ToUpperInvariant()}";

    /// <summary><see cref="HostedVariable"/>'s value: the server's process id, a space, its endpoint.</summary>
    public static string HostedValue(int processId, string endpoint) => $"{processId.ToString(CultureInfo.InvariantCulture)} {endpoint}";

    /// <summary>
    /// The endpoint <see cref="HostedVariable"/> names, or <see langword="null"/> when it is unset or its server no
    /// longer runs (a variable a process inherited from a host that stopped since).
    /// </summary>
    private string? HostedEndpoint(Durability durability) =>
        Environment.GetEnvironmentVariable(HostedVariable(durability))?.Split(' ', 2) is [string pid, string endpoint]
        && int.TryParse(pid, NumberStyles.None, CultureInfo.InvariantCulture, out int processId)
        && Signals.Exists(processId)
            ? endpoint
            : null;

    /// <summary>
    /// Where the shared servers listen, by <see cref="HostedVariable"/>: what a lease publishes, so a process started
    /// while it holds them (a BenchmarkDotNet case's) finds the servers this process runs. Each value is the server's
    /// process id and its endpoint (<see cref="HostedValue"/>), so a value left behind names a server that is gone and is
    /// ignored.
    /// </summary>
    private IReadOnlyDictionary<string, string> Published() =>
        Volatile.Read(ref _shared)
            .Where(server => server.Endpoint is not null && server.ProcessIds.Count > 0)
            .SelectMany(server => Enum.GetValues<Durability>()
                .Where(durability => server.Tiers.Offers(durability))
                .Select(durability => (Name: HostedVariable(durability), Value: HostedValue(server.ProcessIds[0], server.Endpoint!))))
            .DistinctBy(published => published.Name)
            .ToDictionary(published => published.Name, published => published.Value, StringComparer.Ordinal);

    private bool Holds(ServerLease lease)
    {
        lock (_holdersLock)
        {
            return _holders.Contains(lease);
        }
    }

    private async Task AcquireAsync(ServerLease lease, CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            if (Holds(lease))
            {
                throw new InvalidOperationException("This host was started already.");
            }

            if (Volatile.Read(ref _shared).Length == 0)
            {
                Volatile.Write(ref _shared, await StartSharedAsync(cancellationToken).ConfigureAwait(false));
            }

            lock (_holdersLock)
            {
                _holders.Add(lease);
            }
        }
        finally
        {
            _gate.Release();
        }
    }

    private async ValueTask ReleaseAsync(ServerLease lease)
    {
        await _gate.WaitAsync().ConfigureAwait(false);
        try
        {
            lock (_holdersLock)
            {
                if (!_holders.Remove(lease) || _holders.Count > 0)
                {
                    return;
                }
            }

            ServerProcesses[] servers = Volatile.Read(ref _shared);
            Volatile.Write(ref _shared, []);
            await StopAsync(servers).ConfigureAwait(false);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Every shared server, started in order; when one fails to start, those already started are stopped first.</summary>
    private async Task<ServerProcesses[]> StartSharedAsync(CancellationToken cancellationToken)
    {
        ServerProcesses[] servers = [.. row.ServerTiers.Select(tiers => row.CreateServer(tiers))];
        for (int started = 0; started < servers.Length; started++)
        {
            try
            {
                await servers[started].StartAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception startError)
            {
                try
                {
                    await StopAsync(servers[..started]).ConfigureAwait(false);
                }
                catch (AggregateException stopErrors)
                {
                    // Both are said: why the start failed, and which stop failed after it.
                    throw new AggregateException([startError, .. stopErrors.InnerExceptions]);
                }

                throw;
            }
        }

        return servers;
    }

    /// <summary>Stops every server in reverse order, even when stopping one of them throws.</summary>
    private async Task StopAsync(ServerProcesses[] servers)
    {
        List<Exception> errors = [];
        foreach (ServerProcesses server in Enumerable.Reverse(servers))
        {
            try
            {
                await server.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception error)
            {
                errors.Add(error);
            }
        }

        if (errors.Count > 0)
        {
            throw new AggregateException($"Stopping the servers of {row.Name} failed.", errors);
        }
    }

    /// <summary>A suite's hold on the shared servers; whether it holds them is <see cref="RowServers"/>' to know.</summary>
    private sealed class ServerLease(RowServers servers) : RowHost
    {
        public override IReadOnlyDictionary<string, string> Published => servers.Holds(this) ? servers.Published() : NothingPublished;

        public override Task StartAsync(CancellationToken cancellationToken = default) => servers.AcquireAsync(this, cancellationToken);

        public override ValueTask DisposeAsync() => servers.ReleaseAsync(this);
    }
}
