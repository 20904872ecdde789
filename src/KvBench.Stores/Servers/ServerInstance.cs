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
            int port = FreeLoopbackPort();
            string endpoint = $"127.0.0.1:{port}";
            Endpoint = endpoint;
            _process = new ProcessRowHost(row.Name, row.ServerStartInfo(_dataDirectory, port, tiers), ready => row.AnswersAsync(endpoint, ready), row.ReadyTimeout);
            await _process.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }
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
