using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// The servers this process runs for one row, shared by every suite that uses the row at the same time (test classes
/// run in parallel; the row is one object, so it can only know one server per tier): the first lease to start starts
/// them, the last to stop stops them.
/// </summary>
internal sealed class SharedServer(ServerRow row)
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private int _users;
    private RunningServer[] _running = [];

    /// <summary>A host that shares these servers: started, it holds them running; disposed, it lets them go.</summary>
    public RowHost Lease() => new ServerLease(this);

    /// <summary>The running server that serves <paramref name="durability"/>, or <see langword="null"/>.</summary>
    public RunningServer? Running(Durability durability) =>
        Volatile.Read(ref _running).FirstOrDefault(server => server.Tiers.Offers(durability));

    private async Task AcquireAsync(CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            if (_users == 0)
            {
                RunningServer[] servers = [.. row.ServerTiers.Select(row.CreateServer)];

                // RowHostGroup stops those already started when one fails to start.
                await new RowHostGroup(servers).StartAsync(cancellationToken).ConfigureAwait(false);
                Volatile.Write(ref _running, servers);
            }

            _users++;
        }
        finally
        {
            _gate.Release();
        }
    }

    private async ValueTask ReleaseAsync()
    {
        await _gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (--_users == 0)
            {
                RunningServer[] servers = Volatile.Read(ref _running);
                Volatile.Write(ref _running, []);
                List<Exception> errors = [];
                foreach (RunningServer running in servers)
                {
                    try
                    {
                        await running.DisposeAsync().ConfigureAwait(false);
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
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>
    /// Where the running servers listen, by <see cref="ServerRow.HostedVariable"/>: what a lease publishes, so a process
    /// started while it runs (a BenchmarkDotNet case's) finds the servers this process runs. Each value is the server's
    /// process id and its endpoint (<see cref="ServerRow.HostedEndpoint"/>), so a value left behind names a server that
    /// is gone and is ignored.
    /// </summary>
    private IReadOnlyDictionary<string, string> Published() =>
        Volatile.Read(ref _running)
            .Where(running => running.Endpoint is not null && running.ProcessIds.Count > 0)
            .SelectMany(running => Enum.GetValues<Durability>()
                .Where(durability => running.Tiers.Offers(durability))
                .Select(durability => (Name: row.HostedVariable(durability), Value: ServerRow.HostedValue(running.ProcessIds[0], running.Endpoint!))))
            .DistinctBy(published => published.Name)
            .ToDictionary(published => published.Name, published => published.Value, StringComparer.Ordinal);

    private sealed class ServerLease(SharedServer server) : RowHost
    {
        private int _state;

        public override IReadOnlyDictionary<string, string> Published => Volatile.Read(ref _state) == 1 ? server.Published() : NothingPublished;

        public override async Task StartAsync(CancellationToken cancellationToken = default)
        {
            if (Interlocked.CompareExchange(ref _state, 1, 0) != 0)
            {
                throw new InvalidOperationException("This host was started already.");
            }

            try
            {
                await server.AcquireAsync(cancellationToken).ConfigureAwait(false);
            }
            catch
            {
                _state = 0;
                throw;
            }
        }

        public override async ValueTask DisposeAsync()
        {
            if (Interlocked.CompareExchange(ref _state, 2, 1) == 1)
            {
                await server.ReleaseAsync().ConfigureAwait(false);
            }
        }
    }
}
