using System.Diagnostics;

using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// A server process a row needs: started, polled until <c>isReady</c> says it serves, and killed (with its children)
/// when disposed, or when this process exits without disposing it; killed by the kernel when this process is killed
/// (<see cref="ChildProcesses"/>).
/// </summary>
public sealed class ProcessRowHost : RowHost
{
    /// <summary>How long a ready check waits before it asks again.</summary>
    private static readonly TimeSpan s_pollInterval = TimeSpan.FromMilliseconds(20);

    /// <summary>How many of the server's last output lines a failed start quotes.</summary>
    private const int QuotedLines = 10;

    private readonly string _rowName;
    private readonly ProcessStartInfo _startInfo;
    private readonly Func<CancellationToken, Task<bool>> _isReady;
    private readonly TimeSpan _readyTimeout;
    private readonly Queue<string> _lastLines = new();
    private readonly Lock _lastLinesLock = new();
    private readonly Lock _processLock = new();
    private readonly Dictionary<string, string> _publishes;
    private readonly Action<string>? _outputLine;
    private Process? _process;
    private bool _ready;

    /// <param name="rowName">The row the server is for, as errors name it.</param>
    /// <param name="startInfo">The server's command line; its output is read by this host, not shown.</param>
    /// <param name="isReady">Whether the server answers yet (a connection, a ping); asked until it says so.</param>
    /// <param name="readyTimeout">How long the server has to become ready before the start fails.</param>
    /// <param name="publishes">
    /// The environment variables that say how to reach the server (for example its loopback port, chosen before it
    /// starts), published while it serves (<see cref="RowHost.Published"/>). Default: none.
    /// </param>
    /// <param name="outputLine">
    /// Told each line the server writes to its standard output or error, as it comes (from the threads that read them):
    /// for a caller that needs more of what the server said than the last lines a failed start quotes. Default: none.
    /// </param>
    /// <exception cref="ArgumentException">A variable's name is empty or holds '=', or its value is empty.</exception>
    public ProcessRowHost(
        string rowName,
        ProcessStartInfo startInfo,
        Func<CancellationToken, Task<bool>> isReady,
        TimeSpan readyTimeout,
        IReadOnlyDictionary<string, string>? publishes = null,
        Action<string>? outputLine = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(rowName);
        ArgumentNullException.ThrowIfNull(startInfo);
        ArgumentNullException.ThrowIfNull(isReady);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(readyTimeout, TimeSpan.Zero);
        _rowName = rowName;
        _startInfo = startInfo;
        _isReady = isReady;
        _readyTimeout = readyTimeout;
        _publishes = new(publishes ?? NothingPublished);
        _outputLine = outputLine;
        foreach ((string name, string value) in _publishes)
        {
            // An empty value would unset the variable rather than publish it.
            if (name.Length == 0 || name.Contains('=', StringComparison.Ordinal) || string.IsNullOrEmpty(value))
            {
                throw new ArgumentException(
                    $"The server of {rowName} cannot publish '{name}={value}': a variable needs a name without '=' and a value.",
                    nameof(publishes));
            }
        }
    }

    /// <summary>The variables given to the constructor while the server serves; empty before it is ready and after it stopped.</summary>
    public override IReadOnlyDictionary<string, string> Published
    {
        get
        {
            lock (_processLock)
            {
                return _ready ? _publishes : NothingPublished;
            }
        }
    }

    /// <summary>The server's process id while it runs, or <see langword="null"/>.</summary>
    public int? ProcessId
    {
        get
        {
            lock (_processLock)
            {
                return _process?.Id;
            }
        }
    }

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        Process process;
        lock (_processLock)
        {
            if (_process is not null)
            {
                throw new InvalidOperationException($"The server of {_rowName} was started already.");
            }

            _startInfo.UseShellExecute = false;
            _startInfo.RedirectStandardOutput = true;
            _startInfo.RedirectStandardError = true;
            process = new Process { StartInfo = _startInfo };
            process.OutputDataReceived += (_, line) => Keep(line.Data);
            process.ErrorDataReceived += (_, line) => Keep(line.Data);
            try
            {
                ChildProcesses.Start(process);
            }
            catch (Exception error) when (error is System.ComponentModel.Win32Exception or InvalidOperationException)
            {
                process.Dispose();
                throw new StoreUnavailableException(_rowName, $"its server `{_startInfo.FileName}` does not start: {error.Message}", error);
            }

            _process = process;
            AppDomain.CurrentDomain.ProcessExit += KillOnExit;
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await WaitUntilReadyAsync(process, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }

        lock (_processLock)
        {
            _ready = ReferenceEquals(_process, process);
        }
    }

    public override async ValueTask DisposeAsync()
    {
        Process? process;
        lock (_processLock)
        {
            process = _process;
            _process = null;
            _ready = false;
        }

        if (process is null)
        {
            return;
        }

        AppDomain.CurrentDomain.ProcessExit -= KillOnExit;
        using (process)
        {
            Kill(process);
            await process.WaitForExitAsync().ConfigureAwait(false);
        }
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited on its own already.
        }
    }

    private async Task WaitUntilReadyAsync(Process process, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_readyTimeout);
        try
        {
            while (!await _isReady(timeout.Token).ConfigureAwait(false))
            {
                if (process.HasExited)
                {
                    // Waits for its output to end too, so the error quotes its last words.
                    await process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
                    throw new StoreUnavailableException(
                        _rowName,
                        $"its server `{_startInfo.FileName}` exited with code {process.ExitCode} before it was ready{LastLines()}");
                }

                await Task.Delay(s_pollInterval, timeout.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new StoreUnavailableException(
                _rowName,
                $"its server `{_startInfo.FileName}` was not ready within {_readyTimeout.TotalSeconds:0.#} s{LastLines()}");
        }
    }

    private void KillOnExit(object? sender, EventArgs e)
    {
        lock (_processLock)
        {
            if (_process is { } process)
            {
                Kill(process);
            }
        }
    }

    private void Keep(string? line)
    {
        if (line is null)
        {
            return;
        }

        _outputLine?.Invoke(line);
        lock (_lastLinesLock)
        {
            _lastLines.Enqueue(line);
            if (_lastLines.Count > QuotedLines)
            {
                _lastLines.Dequeue();
            }
        }
    }

    private string LastLines()
    {
        lock (_lastLinesLock)
        {
            return _lastLines.Count == 0 ? "." : $"; its last output: {string.Join(" / ", _lastLines)}";
        }
    }
}
