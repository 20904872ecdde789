using System.Diagnostics;
using System.Text;
using System.Threading.Channels;

using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// A running CLI child process: its output lines as they come, its error output, a line-based input, and an exit that
/// is waited for with a timeout, after which the whole process tree is killed. Disposing kills it if it still runs, and
/// it dies with this process however this one ends (<see cref="ChildProcesses"/>).
/// </summary>
public sealed class CliProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly Channel<string> _outputLines = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleReader = true });
    private readonly StringBuilder _error = new();

    internal CliProcess(ProcessStartInfo startInfo)
    {
        _process = new Process { StartInfo = startInfo, EnableRaisingEvents = true };
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                _outputLines.Writer.TryComplete();
            }
            else
            {
                _outputLines.Writer.TryWrite(e.Data);
            }
        };
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_error)
                {
                    _error.AppendLine(e.Data);
                }
            }
        };
        ChildProcesses.Start(_process);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>Starts <paramref name="fileName"/> with <paramref name="arguments"/>, every stream to be redirected.</summary>
    internal static ProcessStartInfo RedirectedStartInfo(string fileName, IEnumerable<string> arguments)
    {
        var startInfo = new ProcessStartInfo(fileName)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        return startInfo;
    }

    /// <summary>Runs <paramref name="startInfo"/> to its end with no input and returns what it printed.</summary>
    /// <param name="startInfo">The process, every stream redirected (see <see cref="RedirectedStartInfo"/>).</param>
    /// <param name="timeout">How long the run may take; past it the process tree is killed.</param>
    /// <exception cref="TimeoutException">The run overran <paramref name="timeout"/> and was killed.</exception>
    internal static async Task<CliRunResult> RunAsync(ProcessStartInfo startInfo, TimeSpan timeout)
    {
        await using var process = new CliProcess(startInfo);
        process.CloseInput();
        int exitCode = await process.WaitForExitAsync(timeout).ConfigureAwait(false)
            ?? throw new TimeoutException(
                $"{Path.GetFileName(startInfo.FileName)} {string.Join(' ', startInfo.ArgumentList)} ran longer than " +
                    $"{timeout.TotalSeconds:0.#} s and was killed. Its error output: {process.StandardError}");
        return new CliRunResult(exitCode, string.Join('\n', await process.ReadAllOutputLinesAsync().ConfigureAwait(false)), process.StandardError);
    }

    /// <summary>The process's id.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Standard output, line by line; completes when the process closes it.</summary>
    public ChannelReader<string> OutputLines => _outputLines.Reader;

    /// <summary>Everything written to standard error so far.</summary>
    public string StandardError
    {
        get
        {
            lock (_error)
            {
                return _error.ToString();
            }
        }
    }

    /// <summary>Writes <paramref name="line"/> to the process's input; a process that has already ended is left alone.</summary>
    public void SendLine(string line)
    {
        try
        {
            _process.StandardInput.WriteLine(line);
            _process.StandardInput.Flush();
        }
        catch (IOException)
        {
            // The process has exited and closed its input: there is no one left to tell.
        }
    }

    /// <summary>Closes the process's input, which a waiting reader sees as its end.</summary>
    public void CloseInput()
    {
        try
        {
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
            // Already gone.
        }
    }

    /// <summary>Waits for the process to exit.</summary>
    /// <returns>The exit code, or <see langword="null"/> when it overran <paramref name="timeout"/> and its process tree was killed.</returns>
    public async Task<int?> WaitForExitAsync(TimeSpan timeout)
    {
        using var overrun = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(overrun.Token).ConfigureAwait(false);
            return _process.ExitCode;
        }
        catch (OperationCanceledException)
        {
            Kill();
            await _process.WaitForExitAsync().ConfigureAwait(false);
            return null;
        }
    }

    /// <summary>Every output line, once the process has closed its output.</summary>
    public async Task<IReadOnlyList<string>> ReadAllOutputLinesAsync()
    {
        var lines = new List<string>();
        await foreach (string line in _outputLines.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            lines.Add(line);
        }

        return lines;
    }

    /// <summary>Kills the process tree if it is still running.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            Kill();
            await _process.WaitForExitAsync().ConfigureAwait(false);
        }

        _process.Dispose();
    }

    /// <summary>Kills the process with SIGKILL, as a crash would end it, and waits for it to be gone.</summary>
    public async Task KillAsync()
    {
        Kill();
        await _process.WaitForExitAsync().ConfigureAwait(false);
    }

    private void Kill()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill.
        }
    }
}
