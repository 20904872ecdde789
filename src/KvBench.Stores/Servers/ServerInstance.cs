using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// One server KvBench runs for a row: its server installed when missing, a data directory of its own under the system
/// temp folder (or under <paramref name="dataParent"/>), a free loopback port, the process (<see cref="ProcessRowHost"/>, which kills it with its children when
/// disposed or when this process exits), and the data directory deleted once it has stopped.
/// </summary>
internal sealed class ServerInstance(ServerRow row, DurabilityTiers tiers, string? dataParent = null) : RunningServer
{
    /// <summary>How long a server has to stop on its signal before its process tree is killed.</summary>
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(15);

    private ProcessRowHost? _process;
    private string? _dataDirectory;
    private int _port;

    private string? _endpoint;

    public override DurabilityTiers Tiers => tiers;

    /// <summary><c>127.0.0.1:port</c> once started.</summary>
    public override string? Endpoint => _endpoint;

    public override string? DataDirectory => _dataDirectory;

    public override IReadOnlyList<int> ProcessIds => _process?.ProcessId is { } pid ? [pid] : [];

    /// <summary>The server's process id while it runs.</summary>
    public int? ProcessId => _process?.ProcessId;

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        await row.Install.EnsureInstalledAsync(row.Name).WaitAsync(cancellationToken).ConfigureAwait(false);
        _dataDirectory = ServerDirectories.NewDataDirectory(row.Name, tiers, dataParent);
        try
        {
            await Task.Run(() => row.InitializeData(_dataDirectory, tiers), cancellationToken).ConfigureAwait(false);
            _port = LoopbackPorts.Free();
            _endpoint = $"127.0.0.1:{_port}";
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
        var process = new ProcessRowHost(
            row.Name,
            row.ServerStartInfo(dataDirectory, _port, tiers),
            ready => row.AnswersAsync(endpoint, ready),
            row.ReadyTimeout);
        _process = process;
        await process.StartAsync(cancellationToken).ConfigureAwait(false);
    }
}
