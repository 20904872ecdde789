using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.ExceptionServices;

namespace KvBench.Stores;

/// <summary>
/// Starts the processes KvBench owns (its servers, its own CLI as a worker or a crash writer) so that each dies with the
/// process that started it, however that one ends, SIGKILL included; otherwise a killed <c>kvbench adr</c> leaves its
/// writers and servers running. On Linux a child starts under <c>setpriv --pdeathsig KILL</c>, which asks the kernel
/// to send it SIGKILL when its parent ends and then executes the program itself, so the process KvBench holds, signals
/// and traces is still the program. Elsewhere a child starts as it is.
/// </summary>
/// <remarks>
/// The kernel sends that signal when the thread that started the child ends, not the process; thread-pool threads end
/// when idle, so every child starts from one thread of its own that lives as long as this process. A child that
/// changes its user itself (a server that drops root) loses the setting, so such a server is started as its user.
/// A child that starts before the setting took hold outlives a parent that died meanwhile; KvBench's own CLI checks
/// for that at its start (<see cref="ExitIfParentGone"/>).
/// </remarks>
public static class ChildProcesses
{
    /// <summary>The variable that names, to a child KvBench started, the process id of the KvBench process that started it.</summary>
    public const string ParentVariable = "KVBENCH_PARENT_PID";

    private const string Setpriv = "/usr/bin/setpriv";

    private static readonly string[] s_setprivArguments = ["--pdeathsig", "KILL", "--"];

    private static readonly BlockingCollection<Action> s_starts = [];

    private static readonly Lazy<Thread> s_starter = new(() =>
    {
        var thread = new Thread(() =>
        {
            foreach (Action start in s_starts.GetConsumingEnumerable())
            {
                start();
            }
        })
        {
            IsBackground = true,
            Name = "KvBench child process starter",
        };
        thread.Start();
        return thread;
    });

    /// <summary>Whether a child's death is tied to this process here: Linux, with util-linux's setpriv.</summary>
    public static bool DieWithParent { get; } = OperatingSystem.IsLinux() && File.Exists(Setpriv);

    /// <summary>
    /// Starts <paramref name="process"/> (<see cref="Process.Start()"/>, with the exceptions it throws) so that it dies
    /// with this process. Its <see cref="Process.StartInfo"/> is as it was once this returns.
    /// </summary>
    public static void Start(Process process)
    {
        ArgumentNullException.ThrowIfNull(process);
        ProcessStartInfo startInfo = process.StartInfo;
        if (!DieWithParent || startInfo.UseShellExecute || startInfo.Arguments.Length > 0 || !Resolves(startInfo.FileName))
        {
            // Nothing to tie it to, or a program setpriv would not find: the start fails or runs as it always did.
            process.Start();
            return;
        }

        ExceptionDispatchInfo? failure = null;
        using var started = new ManualResetEventSlim();
        _ = s_starter.Value;
        s_starts.Add(() =>
        {
            try
            {
                StartUnderSetpriv(process);
            }
            catch (Exception error)
            {
                failure = ExceptionDispatchInfo.Capture(error);
            }
            finally
            {
                started.Set();
            }
        });
        started.Wait();
        failure?.Throw();
    }

    /// <summary>
    /// Ends this process at once when the KvBench process that started it (<see cref="ParentVariable"/>) no longer is
    /// among its ancestors: it ended before the kernel was asked to end this one with it. Called first by the CLI.
    /// </summary>
    public static void ExitIfParentGone()
    {
        if (Environment.GetEnvironmentVariable(ParentVariable) is not { } parentText)
        {
            return;
        }

        // Its own children are given its own id; a program it starts otherwise has no KvBench parent to check.
        Environment.SetEnvironmentVariable(ParentVariable, null);
        if (OperatingSystem.IsLinux()
            && int.TryParse(parentText, NumberStyles.None, CultureInfo.InvariantCulture, out int parent)
            && !IsAncestor(parent))
        {
            Environment.Exit(1);
        }
    }

    private static void StartUnderSetpriv(Process process)
    {
        ProcessStartInfo startInfo = process.StartInfo;
        string program = startInfo.FileName;
        startInfo.FileName = Setpriv;
        for (int index = 0; index < s_setprivArguments.Length; index++)
        {
            startInfo.ArgumentList.Insert(index, s_setprivArguments[index]);
        }

        startInfo.ArgumentList.Insert(s_setprivArguments.Length, program);
        startInfo.Environment[ParentVariable] = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        try
        {
            process.Start();
        }
        finally
        {
            startInfo.FileName = program;
            for (int index = 0; index <= s_setprivArguments.Length; index++)
            {
                startInfo.ArgumentList.RemoveAt(0);
            }

            startInfo.Environment.Remove(ParentVariable);
        }
    }

    /// <summary>Whether <paramref name="program"/> names a file, as it is or on the PATH, as the start would look for it.</summary>
    private static bool Resolves(string program) =>
        program.Contains('/', StringComparison.Ordinal)
            ? File.Exists(program)
            : (Environment.GetEnvironmentVariable("PATH") ?? string.Empty)
                .Split(':', StringSplitOptions.RemoveEmptyEntries)
                .Any(directory => File.Exists(Path.Combine(directory, program)));

    /// <summary>Whether <paramref name="pid"/> is this process's parent, or its parent's (a tracer KvBench started it under), and so on up.</summary>
    private static bool IsAncestor(int pid)
    {
        for (int current = ParentOf(Environment.ProcessId); current > 1; current = ParentOf(current))
        {
            if (current == pid)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The parent's process id from <c>/proc/PID/stat</c> (the field after the command, which may hold spaces), or 0.</summary>
    private static int ParentOf(int pid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], CultureInfo.InvariantCulture);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException or FormatException)
        {
            return 0;
        }
    }
}
