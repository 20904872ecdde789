using System.Globalization;

using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;

namespace KvBench.Tests.Stores;

/// <summary>
/// A process KvBench starts dies with the KvBench process that started it, even one killed with SIGKILL, which has no
/// chance to stop anything: real processes, a <c>kvbench crash</c> and its crash writer.
/// </summary>
public sealed class ChildProcessesTests
{
    /// <summary>How long a child may take to be gone once its parent is: generous, as the machine may be busy.</summary>
    internal static readonly TimeSpan GoneTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_crash_writer_dies_with_the_kvbench_crash_that_started_it_when_that_one_is_killed()
    {
        if (!ChildProcesses.DieWithParent)
        {
            return;
        }

        using var directory = new TempDirectory();
        await using CliProcess crash = KvBenchCli.Locate().Start(
            ["crash", "--store", SqliteRow.WalName, "--dir", directory.Combine("store"), "--rounds", "1000"]);

        // Killed as soon as it runs a writer, before it kills that writer itself at the end of the round.
        int[] writers = [];
        using (var deadline = new CancellationTokenSource(GoneTimeout))
        {
            while (writers.Length == 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(10), deadline.Token);
                writers = [.. ProcessTree.Descendants(crash.ProcessId).Where(pid => CommandLine(pid).Contains("crash-writer", StringComparison.Ordinal))];
            }
        }

        Assert.True(Signals.Send(crash.ProcessId, Signals.ForceKill));

        int[] left = await RunningAfterAsync(writers, GoneTimeout);
        Assert.True(left.Length == 0, $"The crash writers {string.Join(", ", left)} still run after their kvbench crash was killed.");
    }

    /// <summary>Which of <paramref name="pids"/> still run (a zombie does not) once they are all gone or <paramref name="timeout"/> has passed.</summary>
    internal static async Task<int[]> RunningAfterAsync(IReadOnlyList<int> pids, TimeSpan timeout)
    {
        using var deadline = new CancellationTokenSource(timeout);
        int[] running = [.. pids.Where(IsRunning)];
        while (running.Length > 0 && !deadline.IsCancellationRequested)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(50), CancellationToken.None);
            running = [.. running.Where(IsRunning)];
        }

        return running;
    }

    /// <summary>Whether <paramref name="pid"/> is a process that has not ended: one in /proc whose state is not Z.</summary>
    private static bool IsRunning(int pid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");
            return stat[stat.LastIndexOf(')') + 2] != 'Z';
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static string CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/cmdline");
        }
        catch (IOException)
        {
            return string.Empty;
        }
    }
}
