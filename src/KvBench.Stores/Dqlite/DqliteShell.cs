using System.Diagnostics;
using System.Globalization;
using System.Text;

using KvBench.Core;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// One <c>dqlite</c> shell process (go-dqlite's SQL shell, Debian's <c>go-dqlite</c>) talking to a dqlite cluster over
/// dqlite's wire protocol, driven through its standard input: a request is lines of SQL, each line one transaction (the
/// shell wraps each in BEGIN and COMMIT on its one connection to the leader), answered on standard output by the rows of
/// its SELECTs, one a line with columns joined by <c>|</c>, or by <c>Error:  ...</c> lines. A line of its own closes
/// every request: <c>.weight 0 MARKER</c>, which the shell refuses without asking the cluster, answering
/// <c>Error:  bad weight "MARKER"</c>, so the end of a request is seen even when the cluster answers nothing. A request
/// not answered within the timeout kills the process (a paused leader answers never, and the shell sets no deadline of
/// its own), and the shell is not used again.
/// </summary>
internal sealed class DqliteShell : IDisposable
{
    /// <summary>The shell, from Debian's <c>go-dqlite</c>.</summary>
    internal const string Program = "/usr/bin/dqlite";

    /// <summary>
    /// The longest line the shell reads whole. With its input not a terminal it reads lines through Go's
    /// <c>bufio.Reader</c> of 4,096 bytes (liner's fallback, <c>ReadLine</c> with the "line continues" flag ignored), so a
    /// longer line reaches it as several statements of at most 4,096 bytes each, newline included: a longer INSERT runs
    /// as two broken statements.
    /// </summary>
    internal const int MaxLineBytes = 4095;

    /// <summary>
    /// The longest SELECT line that is answered. go-dqlite 1.11.5 on dqlite 1.11.1 never answers a valid SELECT of
    /// 4,079 bytes or more (it answers one of 4,078 bytes, and lines of 4,095 bytes that write, and refuses a malformed
    /// SELECT of 4,096 bytes at once): the shell waits until it is killed.
    /// </summary>
    internal const int MaxQueryLineBytes = 4078;

    /// <summary>What the shell prints before it reads each line: its prompt, which it prints when its input is not a terminal.</summary>
    private const string Prompt = "dqlite> ";

    private const string ErrorPrefix = "Error:  ";

    /// <summary>What every row the dqlite row selects starts with (<see cref="DqliteSql"/>), told apart from the lines of a long error.</summary>
    internal const char RowPrefix = '=';

    private const int Running = 0;

    private const int Answered = 1;

    private const int TimedOut = 2;

    private static long s_markers;

    private readonly Process _process;
    private readonly string _rowName;
    private readonly TimeSpan _timeout;
    private readonly Queue<string> _stderr = new();
    private bool _broken;

    /// <summary>Starts a shell on the cluster whose members are <paramref name="members"/> (<c>host:port</c> each), tried in that order.</summary>
    /// <exception cref="StoreUnavailableException">The shell does not start.</exception>
    public DqliteShell(string rowName, IReadOnlyList<string> members, string database, TimeSpan timeout)
    {
        _rowName = rowName;
        _timeout = timeout;
        var startInfo = new ProcessStartInfo(Program, ["-s", string.Join(',', members), database])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.ASCII,
        };
        _process = new Process { StartInfo = startInfo };
        _process.ErrorDataReceived += (_, line) => KeepError(line.Data);
        try
        {
            _process.Start();
        }
        catch (Exception error) when (error is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            _process.Dispose();
            throw new StoreUnavailableException(rowName, $"its client `{Program}` does not start: {error.Message}", error);
        }

        _process.BeginErrorReadLine();
        _process.StandardInput.NewLine = "\n";
        _process.StandardInput.AutoFlush = false;
    }

    /// <summary>Whether a request failed in a way that leaves the shell unusable (killed, exited): it is then disposed, not reused.</summary>
    public bool IsBroken => _broken;

    /// <summary>
    /// Sends <paramref name="lines"/> (each at most <see cref="MaxLineBytes"/> bytes, a SELECT at most
    /// <see cref="MaxQueryLineBytes"/>, no newline inside; the shell does not say when one is longer) and returns the
    /// rows they printed, each without its line end; rows whose first column is a constant let a caller tell an empty
    /// value from no row, which the shell prints alike.
    /// </summary>
    /// <exception cref="DqliteStatementException">A line was refused or failed; the other lines ran, each its own transaction.</exception>
    /// <exception cref="StoreUnavailableException">No answer within the timeout, or the shell exited; it is broken.</exception>
    public List<string> Run(IEnumerable<string> lines)
    {
        if (_broken)
        {
            throw new InvalidOperationException("A broken dqlite shell is not used again.");
        }

        string marker = "kvbench" + Interlocked.Increment(ref s_markers).ToString(CultureInfo.InvariantCulture);
        string end = $"{ErrorPrefix}bad weight \"{marker}\"";
        var rows = new List<string>();
        var errors = new List<string>();
        // Running, answered or timed out: whichever of the reader and the timer gets there first decides, so a shell
        // killed just as its answer arrived is never handed out again.
        int state = Running;
        using var deadline = new Timer(_ =>
        {
            if (Interlocked.CompareExchange(ref state, TimedOut, Running) == Running)
            {
                Kill();
            }
        }, null, _timeout, Timeout.InfiniteTimeSpan);
        try
        {
            StreamWriter input = _process.StandardInput;
            foreach (string line in lines)
            {
                input.WriteLine(line);
            }

            input.WriteLine($".weight 0 {marker}");
            input.Flush();
            while (true)
            {
                string? line = _process.StandardOutput.ReadLine();
                if (line is null)
                {
                    _broken = true;
                    throw Unavailable(Volatile.Read(ref state) == TimedOut ? NoAnswer : $"its client `{Program}` exited{LastErrors()}");
                }

                while (line.StartsWith(Prompt, StringComparison.Ordinal))
                {
                    line = line[Prompt.Length..];
                }

                if (line == end)
                {
                    break;
                }

                if (line.StartsWith(ErrorPrefix, StringComparison.Ordinal))
                {
                    errors.Add(line[ErrorPrefix.Length..]);
                }
                else if (errors.Count > 0 && !line.StartsWith(RowPrefix))
                {
                    // An error's message may run over several lines; a line of the row's own starts with RowPrefix.
                    errors[^1] += " " + line;
                }
                else
                {
                    rows.Add(line);
                }
            }
        }
        catch (IOException error)
        {
            _broken = true;
            throw Unavailable(Volatile.Read(ref state) == TimedOut ? NoAnswer : $"its client `{Program}` broke off: {error.Message}{LastErrors()}", error);
        }

        if (Interlocked.CompareExchange(ref state, Answered, Running) == TimedOut)
        {
            _broken = true;
        }

        return errors.Count == 0 ? rows : throw new DqliteStatementException(errors);
    }

    /// <summary>Closes the shell's input, which ends it, and kills it if it does not end at once.</summary>
    public void Dispose()
    {
        try
        {
            if (!_broken)
            {
                _process.StandardInput.Close();
                if (_process.WaitForExit(TimeSpan.FromSeconds(1)))
                {
                    return;
                }
            }

            Kill();
            _process.WaitForExit();
        }
        catch (IOException)
        {
            Kill();
        }
        finally
        {
            _broken = true;
            _process.Dispose();
        }
    }

    private void Kill()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited already.
        }
    }

    private string NoAnswer => $"the cluster did not answer within {_timeout.TotalSeconds:0.#} s (the shell was killed)";

    private StoreUnavailableException Unavailable(string reason, Exception? error = null) => new(_rowName, reason, error);

    private void KeepError(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_stderr)
        {
            _stderr.Enqueue(line);
            if (_stderr.Count > 5)
            {
                _stderr.Dequeue();
            }
        }
    }

    private string LastErrors()
    {
        lock (_stderr)
        {
            return _stderr.Count == 0 ? string.Empty : ": " + string.Join(" / ", _stderr);
        }
    }
}

/// <summary>What the dqlite shell printed for lines it refused or that failed, one message a line.</summary>
internal sealed class DqliteStatementException(IReadOnlyList<string> errors)
    : Exception("dqlite said: " + string.Join(" / ", errors))
{
    /// <summary>Each <c>Error:</c> line, without its prefix.</summary>
    public IReadOnlyList<string> Errors { get; } = errors;

    /// <summary>Whether every error is SQLITE_BUSY: another connection's write transaction held the database, and the line may be run again.</summary>
    public bool IsBusy => Errors.All(error => error.EndsWith("database is locked", StringComparison.Ordinal));
}
