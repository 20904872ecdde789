using System.Runtime.InteropServices;

namespace KvBench.Stores.Servers;

/// <summary>POSIX signals to processes KvBench did not start in this process (a server's stop, another kvbench's).</summary>
internal static partial class Signals
{
    /// <summary>SIGQUIT.</summary>
    public const int Quit = 3;

    /// <summary>SIGKILL.</summary>
    public const int ForceKill = 9;

    /// <summary>SIGTERM.</summary>
    public const int Terminate = 15;

    /// <summary>SIGCONT: a stopped process runs on.</summary>
    public const int Continue = 18;

    /// <summary>SIGSTOP: the process stops until SIGCONT, and cannot catch or ignore it.</summary>
    public const int Stop = 19;

    /// <summary>Sends <paramref name="signal"/> to <paramref name="pid"/>; whether it was delivered (the process exists and may be signalled).</summary>
    public static bool Send(int pid, int signal) => Kill(pid, signal) == 0;

    /// <summary>Whether <paramref name="pid"/> is a process (a zombie not yet reaped still is).</summary>
    public static bool Exists(int pid) => Directory.Exists($"/proc/{pid}");

    /// <summary>Waits until <paramref name="pid"/> is gone or <paramref name="timeout"/> has passed; whether it is gone.</summary>
    public static async Task<bool> WaitUntilGoneAsync(int pid, TimeSpan timeout)
    {
        using var deadline = new CancellationTokenSource(timeout);
        while (Exists(pid))
        {
            if (deadline.IsCancellationRequested)
            {
                return false;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(20), CancellationToken.None).ConfigureAwait(false);
        }

        return true;
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
