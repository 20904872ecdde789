using System.Net;
using System.Net.Sockets;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// One server KvBench runs for a row: its server installed when missing, a data directory of its own under the system
/// temp folder, a free loopback port, the process (<see cref="ProcessRowHost"/>, which kills it with its children when
/// disposed or when this process exits), and the data directory deleted once it has stopped.
/// </summary>
internal sealed class ServerInstance(ServerRow row, DurabilityTiers tiers) : RowHost
{
    /// <summary>How long a server has to stop on its signal before its process tree is killed.</summary>
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(15);

    private ProcessRowHost? _process;
    private string? _dataDirectory;
    private int _port;

    /// <summary>The durability tiers this server is set up for.</summary>
    public DurabilityTiers Tiers => tiers;

    /// <summary><c>127.0.0.1:port</c> once started.</summary>
    public string? Endpoint { get; private set; }

    /// <summary>The server's data directory while it runs.</summary>
    public string? DataDirectory => _dataDirectory;

    /// <summary>The server's process id while it runs.</summary>
    public int? ProcessId => _process?.ProcessId;

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        await row.Install.EnsureInstalledAsync(row.Name).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(row.Name, tiers);
        try
        {
            await Task.Run(() => row.InitializeData(_dataDirectory, tiers), cancellationToken).ConfigureAwait(false);
            _port = FreeLoopbackPort();
            Endpoint = $"127.0.0.1:{_port}";
            await StartProcessAsync(_dataDirectory, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Kills the server's whole process tree with SIGKILL, as a crash ends it (no stop signal, no shutdown), and keeps
    /// its data directory for <see cref="RestartAsync"/>.
    /// </summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="InvalidOperationException">The server does not run.</exception>
    public async Task<long> KillAsync()
    {
        ProcessRowHost process = Interlocked.Exchange(ref _process, null)
            ?? throw new InvalidOperationException($"The server of {row.Name} does not run, so it cannot be killed.");
        long killedAt = System.Diagnostics.Stopwatch.GetTimestamp();

        // ProcessRowHost ends its process tree with SIGKILL and waits until the server itself is gone.
        await process.DisposeAsync().ConfigureAwait(false);
        return killedAt;
    }

    /// <summary>Starts the server again on the data directory and port it had, after <see cref="KillAsync"/>: it recovers from what it left there.</summary>
    /// <exception cref="InvalidOperationException">The server runs, or was never started.</exception>
    public async Task RestartAsync(CancellationToken cancellationToken = default)
    {
        if (Volatile.Read(ref _process) is not null || _dataDirectory is not { } dataDirectory)
        {
            throw new InvalidOperationException($"The server of {row.Name} restarts only after it was started and killed.");
        }

        await StartProcessAsync(dataDirectory, cancellationToken).ConfigureAwait(false);
    }

    public override async ValueTask DisposeAsync()
    {
        ProcessRowHost? process = Interlocked.Exchange(ref _process, null);
        if (process is not null)
        {
            if (row.StopSignal is { } signal && process.ProcessId is { } pid && Signals.Send(pid, signal))
            {
                await Signals.WaitUntilGoneAsync(pid, s_stopTimeout).ConfigureAwait(false);
            }

            // Kills whatever still runs of the server's process tree (everything, when it has no stop signal).
            await process.DisposeAsync().ConfigureAwait(false);
        }

        if (Interlocked.Exchange(ref _dataDirectory, null) is { } dataDirectory && Directory.Exists(dataDirectory))
        {
            Directory.Delete(dataDirectory, recursive: true);
        }
    }

    /// <summary>Runs the server on <paramref name="dataDirectory"/> at <see cref="Endpoint"/>'s port until it answers.</summary>
    private async Task StartProcessAsync(string dataDirectory, CancellationToken cancellationToken)
    {
        string endpoint = Endpoint!;
        var process = new ProcessRowHost(row.Name, row.ServerStartInfo(dataDirectory, _port, tiers), ready => row.AnswersAsync(endpoint, ready), row.ReadyTimeout);
        _process = process;
        await process.StartAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>A port nothing listens on now; the kernel does not hand it out again at once, so the server gets it.</summary>
    internal static int FreeLoopbackPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
