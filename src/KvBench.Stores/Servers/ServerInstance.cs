using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// One server KvBench runs for a row: its package installed when missing, a data directory of its own under the system
/// temp folder, a free loopback port, the process (<see cref="ProcessRowHost"/>, which kills it with its children when
/// disposed or when this process exits), and the data directory deleted once it has stopped.
/// </summary>
internal sealed class ServerInstance(ServerRow row, DurabilityTiers tiers) : RunningServer
{
    /// <summary>How long a server has to stop on its signal before its process tree is killed.</summary>
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(15);

    private ProcessRowHost? _process;
    private string? _dataDirectory;

    private string? _endpoint;

    public override DurabilityTiers Tiers => tiers;

    /// <summary><c>127.0.0.1:port</c> once started.</summary>
    public override string? Endpoint => _endpoint;

    public override string? DataDirectory => _dataDirectory;

    public override IReadOnlyList<int> ProcessIds => _process?.ProcessId is { } pid ? [pid] : [];

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        await DebianPackages.EnsureInstalledAsync(row.Name, row.DebianPackage).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(row.Name, tiers);
        try
        {
            await Task.Run(() => row.InitializeData(_dataDirectory, tiers), cancellationToken).ConfigureAwait(false);
            int port = LoopbackPorts.Free();
            string endpoint = $"127.0.0.1:{port}";
            _endpoint = endpoint;
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
}
