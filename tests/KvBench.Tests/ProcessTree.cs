using System.Globalization;

namespace KvBench.Tests;

/// <summary>Processes as Linux lists them in /proc: what a server forked, and whether a process still runs.</summary>
public static class ProcessTree
{
    /// <summary>Every process below <paramref name="parent"/>, from each process's parent in /proc.</summary>
    public static IReadOnlyList<int> Descendants(int parent)
    {
        Dictionary<int, int> parents = [];
        foreach (string entry in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(entry), NumberStyles.None, CultureInfo.InvariantCulture, out int pid)
                && TryReadParent(entry) is { } parentPid)
            {
                parents[pid] = parentPid;
            }
        }

        var found = new List<int>();
        var below = new Queue<int>([parent]);
        while (below.TryDequeue(out int next))
        {
            foreach (int child in parents.Where(pair => pair.Value == next).Select(pair => pair.Key))
            {
                found.Add(child);
                below.Enqueue(child);
            }
        }

        return found;
    }

    /// <summary>The parent pid, the field after the command name in /proc/PID/stat (the name is in parentheses and may hold spaces).</summary>
    private static int? TryReadParent(string processDirectory)
    {
        try
        {
            string stat = File.ReadAllText(Path.Combine(processDirectory, "stat"));
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            // The process ended while the list was read.
            return null;
        }
    }

    /// <summary>Whether <paramref name="pid"/> is in /proc (a zombie not yet reaped still is).</summary>
    public static bool Exists(int pid) => Directory.Exists($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}");
}
