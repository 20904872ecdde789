using System.Runtime.InteropServices;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// Counts the system calls of the threads a run starts, with the kernel's own counter: a <c>perf_event_open</c> counting
/// event on the <c>raw_syscalls:sys_enter</c> tracepoint, opened on the calling thread with <c>inherit</c>, so every
/// thread created after it (the run's workers) counts into it, and read while they run. Counting costs the kernel an
/// increment per system call; nothing is traced or copied, unlike strace, which stops the process on every call.
/// </summary>
/// <remarks>
/// Linux only, and only where the kernel lets this process count a tracepoint (root, or
/// <c>/proc/sys/kernel/perf_event_paranoid</c> at most 1, and tracefs mounted to name the tracepoint's id). Where it
/// cannot, <see cref="TryOpen"/> says why, and the tables print that reason instead of a count. As root, a tracefs
/// that is not mounted (a fresh virtual machine) is mounted on <c>/sys/kernel/tracing</c>, its usual place.
/// </remarks>
internal sealed partial class SystemCallCounter : IDisposable
{
    private const string TracingDirectory = "/sys/kernel/tracing";
    private const string SysEnterId = "events/raw_syscalls/sys_enter/id";
    private const uint PerfTypeTracepoint = 2;
    private const ulong InheritFlag = 1UL << 1;
    private const nint CloseOnExec = 8;

    private static readonly Lazy<(ulong? Id, string? Reason)> s_tracepoint = new(FindTracepoint);

    private readonly int _fd;

    private SystemCallCounter(int fd) => _fd = fd;

    /// <summary>The counter, or <see langword="null"/> with <paramref name="reason"/> saying why system calls cannot be counted here.</summary>
    public static SystemCallCounter? TryOpen(out string? reason)
    {
        (ulong? id, reason) = s_tracepoint.Value;
        if (id is not { } tracepoint)
        {
            return null;
        }

        var attributes = new PerfEventAttributes
        {
            Type = PerfTypeTracepoint,
            Size = (uint)Marshal.SizeOf<PerfEventAttributes>(),
            Config = tracepoint,
            Flags = InheritFlag,
        };
        long number = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X64 => 298,
            Architecture.Arm64 => 241,
            _ => -1,
        };
        if (number < 0)
        {
            reason = $"not counted on {RuntimeInformation.ProcessArchitecture} (KvBench knows perf_event_open's number on x64 and arm64 only)";
            return null;
        }

        // pid 0 and cpu -1: this thread and, through inherit, the threads it starts, on any processor.
        long fd = Syscall(number, ref attributes, 0, -1, -1, CloseOnExec);
        if (fd < 0)
        {
            int error = Marshal.GetLastPInvokeError();
            reason = $"not counted: perf_event_open failed with {Marshal.GetPInvokeErrorMessage(error)} (errno " +
                $"{error}); root, or kernel.perf_event_paranoid at most 1, allows it";
            return null;
        }

        reason = null;
        return new SystemCallCounter((int)fd);
    }

    /// <summary>System calls counted so far by this thread and the threads it started since the counter opened.</summary>
    public long Read()
    {
        ulong count = 0;
        return Read(_fd, ref count, sizeof(ulong)) == sizeof(ulong)
            ? (long)count
            : throw new IOException($"Reading the system call counter failed (errno {Marshal.GetLastPInvokeError()}).");
    }

    public void Dispose() => _ = Close(_fd);

    private static (ulong? Id, string? Reason) FindTracepoint()
    {
        if (!OperatingSystem.IsLinux())
        {
            return (null, "not counted: the kernel's system call counter is Linux's");
        }

        string? file = new[] { TracingDirectory, "/sys/kernel/debug/tracing" }
            .Select(directory => Path.Combine(directory, SysEnterId))
            .FirstOrDefault(File.Exists);
        if (file is null && GetEffectiveUserId() == 0 && Directory.Exists(TracingDirectory) && !Directory.EnumerateFileSystemEntries(TracingDirectory).Any())
        {
            // Naming a tracepoint takes its id, which only tracefs shows; a fresh virtual machine may not mount it.
            _ = Mount("nodev", TracingDirectory, "tracefs", 0, 0);
            file = Path.Combine(TracingDirectory, SysEnterId);
        }

        if (file is null || !File.Exists(file))
        {
            return (null, $"not counted: tracefs is not mounted ({TracingDirectory} has no {SysEnterId}; as root: mount -t tracefs nodev {TracingDirectory})");
        }

        try
        {
            return (ulong.Parse(File.ReadAllText(file).Trim(), System.Globalization.CultureInfo.InvariantCulture), null);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException or FormatException)
        {
            return (null, $"not counted: {file} could not be read ({error.Message})");
        }
    }

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    private static partial long Syscall(long number, ref PerfEventAttributes attributes, nint pid, nint cpu, nint groupFd, nint flags);

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    private static partial nint Read(int fd, ref ulong buffer, nint count);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "geteuid")]
    private static partial uint GetEffectiveUserId();

    [LibraryImport("libc", EntryPoint = "mount", StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Mount(string source, string target, string type, ulong flags, nint data);

    /// <summary>The first 64 bytes of <c>struct perf_event_attr</c> (PERF_ATTR_SIZE_VER0), all a counting event needs.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct PerfEventAttributes
    {
        public uint Type;
        public uint Size;
        public ulong Config;
        public ulong SamplePeriod;
        public ulong SampleType;
        public ulong ReadFormat;
        public ulong Flags;
        public uint WakeupEvents;
        public uint BreakpointType;
        public ulong Config1;
    }
}
