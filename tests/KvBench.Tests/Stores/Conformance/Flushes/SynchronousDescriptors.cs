using System.Globalization;
using System.Text.RegularExpressions;


namespace KvBench.Tests.Stores.Conformance.Flushes;

/// <summary>
/// Which descriptors of traced processes were open with O_SYNC or O_DSYNC when each traced write went through them: a
/// write through such a descriptor returns only once the device has the data, a flush without a call of its own. What a
/// process had open when the trace began is read from <c>/proc/PID/fdinfo</c> then; what it opens, and closes, while
/// traced is read from strace's own lines, in order. Reading <c>/proc</c> only after the trace was wrong: dqlite's libraft
/// closes a Raft log segment once it holds 8 MiB and writes on in the next one, and the appends to a segment closed
/// during the trace were no longer seen as synchronous (the count per Put then fell below what every Put made).
/// </summary>
internal sealed partial class SynchronousDescriptors
{
    /// <summary>The calls <see cref="Observe"/> reads, for strace's <c>-e trace=</c>.</summary>
    public const string Calls = "open,openat,creat,close";

    /// <summary>O_DSYNC, which O_SYNC includes, in the octal flags of /proc/PID/fdinfo/FD.</summary>
    private const int DataSync = 0x1000;

    private readonly Dictionary<(string Process, string Descriptor), bool> _known = [];
    private readonly Dictionary<string, bool> _openingSynchronous = [];
    private readonly Dictionary<string, string> _processOfThread = [];
    private readonly Func<string, string> _processOf;
    private readonly Func<string, string, bool> _readNow;

    /// <summary>For tests: how a thread's process is found, and how a descriptor neither opened in the trace nor known at its start is judged.</summary>
    internal SynchronousDescriptors(Func<string, string> processOf, Func<string, string, bool> readNow)
    {
        _processOf = processOf;
        _readNow = readNow;
    }

    /// <summary>The descriptors <paramref name="processes"/> have open now, each judged from its flags.</summary>
    public static SynchronousDescriptors Of(IEnumerable<int> processes)
    {
        var descriptors = new SynchronousDescriptors(ProcessOf, (thread, descriptor) => OpenedSynchronous(thread, descriptor) ?? false);
        foreach (int process in processes)
        {
            string id = process.ToString(CultureInfo.InvariantCulture);
            string fdinfo = $"/proc/{id}/fdinfo";
            if (!Directory.Exists(fdinfo))
            {
                continue;
            }

            foreach (string descriptor in Directory.EnumerateFiles(fdinfo).Select(Path.GetFileName).OfType<string>())
            {
                if (OpenedSynchronous(id, descriptor) is { } synchronous)
                {
                    descriptors._known[(id, descriptor)] = synchronous;
                }
            }
        }

        return descriptors;
    }

    /// <summary>Reads one line of <c>strace -f</c>: an open that returned a descriptor records its flags, a close forgets it.</summary>
    public void Observe(string line)
    {
        if (Opened().Match(line) is { Success: true } opened)
        {
            string thread = opened.Groups["thread"].Value;
            bool synchronous = SyncFlag().IsMatch(opened.Groups["arguments"].Value);
            if (opened.Groups["unfinished"].Success)
            {
                _openingSynchronous[thread] = synchronous;
            }
            else if (opened.Groups["descriptor"].Success)
            {
                _known[(Process(thread), opened.Groups["descriptor"].Value)] = synchronous;
            }
        }
        else if (OpenResumed().Match(line) is { Success: true } resumed)
        {
            string thread = resumed.Groups["thread"].Value;
            if (_openingSynchronous.Remove(thread, out bool synchronous) && resumed.Groups["descriptor"].Success)
            {
                _known[(Process(thread), resumed.Groups["descriptor"].Value)] = synchronous;
            }
        }
        else if (Closed().Match(line) is { Success: true } closed)
        {
            _known.Remove((Process(closed.Groups["thread"].Value), closed.Groups["descriptor"].Value));
        }
    }

    /// <summary>Whether a write by <paramref name="thread"/> through <paramref name="descriptor"/> at this point of the trace is a flush.</summary>
    public bool IsSynchronous(string thread, string descriptor)
    {
        (string, string) key = (Process(thread), descriptor);
        if (!_known.TryGetValue(key, out bool synchronous))
        {
            // Opened before the trace by a process found since (a child), or by a call not traced (dup, socket): its
            // flags now, once.
            synchronous = _known[key] = _readNow(thread, descriptor);
        }

        return synchronous;
    }

    private string Process(string thread)
    {
        if (!_processOfThread.TryGetValue(thread, out string? process))
        {
            process = _processOfThread[thread] = _processOf(thread);
        }

        return process;
    }

    /// <summary>The thread group (process) of a thread, from its status; the thread itself once it has exited.</summary>
    private static string ProcessOf(string thread)
    {
        string status = $"/proc/{thread}/status";
        string? group = File.Exists(status) ? File.ReadLines(status).FirstOrDefault(line => line.StartsWith("Tgid:", StringComparison.Ordinal)) : null;
        return group is null ? thread : group["Tgid:".Length..].Trim();
    }

    /// <summary>Whether <paramref name="thread"/>'s descriptor is open with O_DSYNC (or O_SYNC) now; <see langword="null"/> when it is not open.</summary>
    private static bool? OpenedSynchronous(string thread, string descriptor)
    {
        string info = $"/proc/{thread}/fdinfo/{descriptor}";
        try
        {
            string? flags = File.ReadLines(info).FirstOrDefault(line => line.StartsWith("flags:", StringComparison.Ordinal));
            return flags is null ? null : (Convert.ToInt32(flags["flags:".Length..].Trim(), 8) & DataSync) != 0;
        }
        catch (Exception error) when (error is FileNotFoundException or DirectoryNotFoundException or UnauthorizedAccessException)
        {
            // Closed between the listing and the read, or the process is gone.
            return null;
        }
    }

    [
        GeneratedRegex(
            @"^(?<thread>\d+)\s+(?:open|openat|creat)\((?<arguments>.*?)(?:(?<unfinished>\s*<unfinished " +
                @"\.\.\.>)$|\)\s+=\s+(?:(?<descriptor>\d+)|-\d+)\b)")]
    private static partial Regex Opened();

    [GeneratedRegex(@"^(?<thread>\d+)\s+<\.\.\. (?:open|openat|creat) resumed>.*\)\s+=\s+(?:(?<descriptor>\d+)|-\d+)")]
    private static partial Regex OpenResumed();

    [GeneratedRegex(@"^(?<thread>\d+)\s+close\((?<descriptor>\d+)")]
    private static partial Regex Closed();

    [GeneratedRegex(@"\bO_D?SYNC\b")]
    private static partial Regex SyncFlag();
}
