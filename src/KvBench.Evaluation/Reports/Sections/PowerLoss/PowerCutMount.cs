using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;


namespace KvBench.Evaluation.Reports.Sections.PowerLoss;

/// <summary>What the power-cut file system reports through its control file.</summary>
/// <param name="Pending">Writes made and not yet flushed: what a cut may drop.</param>
/// <param name="Flushes">Flushes it has honoured: file fsyncs, fdatasyncs, synchronous writes, directory fsyncs.</param>
/// <param name="IsCut">Whether the power has been cut.</param>
public readonly record struct PowerCutStatus(long Pending, long Flushes, bool IsCut);

/// <summary>
/// The power-cut file system (<c>native/powercut/powercut.c</c>, whose comment states what it models) mounted over a
/// backing folder: every call passes through, but only what was flushed reaches the backing folder, and
/// <see cref="Cut"/> drops the rest as a power cut would. Built with gcc against libfuse3 into a cache folder on first
/// use; disposing always unmounts, lazily when a process still holds the mount.
/// </summary>
public sealed class PowerCutMount : IAsyncDisposable
{
    /// <summary>The control file's name in the mount's root; listings do not show it.</summary>
    public const string ControlFileName = ".powercut";

    /// <summary>The bytes of a sector: a torn write keeps whole sectors of its beginning.</summary>
    public const int SectorBytes = 512;

    private const string SourceResource = "KvBench.Evaluation.PowerLoss.powercut.c";
    private const string BuildScriptResource = "KvBench.Evaluation.PowerLoss.build.sh";
    private static readonly TimeSpan s_mountTimeout = TimeSpan.FromSeconds(20);
    private static readonly TimeSpan s_exitTimeout = TimeSpan.FromSeconds(10);
    private static readonly SemaphoreSlim s_buildLock = new(1, 1);

    private readonly Process _process;
    private readonly string _scratch;
    private readonly Task<string> _standardError;
    private bool _disposed;

    private PowerCutMount(Process process, string scratch, string backing, string mountPoint)
    {
        _process = process;
        _scratch = scratch;
        Backing = backing;
        MountPoint = mountPoint;
        _standardError = process.StandardError.ReadToEndAsync();
    }

    /// <summary>The folder that holds what survives: after a cut, exactly what was flushed.</summary>
    public string Backing { get; }

    /// <summary>Where processes read and write: a file system that passes every call to a live copy of the backing folder.</summary>
    public string MountPoint { get; }

    /// <summary>
    /// Why the file system cannot run on this machine, in one line, or <see langword="null"/> when it can: it needs Linux,
    /// root (to mount), <c>/dev/fuse</c>, Debian's <c>fuse3</c> and <c>libfuse3-dev</c> (which the build installs as
    /// root), and gcc.
    /// </summary>
    public static string? Unavailable()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "The power-cut file system needs Linux (FUSE 3).";
        }

        if (!Environment.IsPrivilegedProcess)
        {
            return "The power-cut file system mounts with FUSE, which here needs root; run as root.";
        }

        if (!File.Exists("/dev/fuse"))
        {
            return "The power-cut file system needs /dev/fuse, which this machine (or container) does not have.";
        }

        string[] needed = ["/usr/bin/fusermount3", "/usr/include/fuse3/fuse.h", "/usr/bin/gcc", "/usr/bin/pkg-config"];
        string[] missing = [.. needed.Where(path => !File.Exists(path))];
        return missing.Length == 0
            ? null
            : $"The power-cut file system needs Debian's fuse3, libfuse3-dev and gcc ({string.Join(", ", missing)} missing): "
                + "apt-get install fuse3 libfuse3-dev gcc.";
    }

    /// <summary>
    /// Mounts the file system over <paramref name="backing"/> at a new folder under <paramref name="scratch"/> (which must
    /// be on the backing folder's file system or any other; its working copies go there and are deleted on dispose).
    /// Every user may use the mount (<c>allow_other</c>), since servers run as users of their own.
    /// </summary>
    /// <param name="backing">The folder that holds what survives.</param>
    /// <param name="scratch">Where the working copies go.</param>
    /// <param name="mountPoint">
    /// Where to mount, an empty folder (created when missing), so that a remount after a cut shows the same paths, as a
    /// machine's disk does after it boots again; default: a new folder under <paramref name="scratch"/>.
    /// </param>
    /// <param name="cancellationToken">Cancels the build and the wait for the mount.</param>
    /// <exception cref="InvalidOperationException">It cannot run here (<see cref="Unavailable"/>), or the mount failed.</exception>
    public static async Task<PowerCutMount> MountAsync(
        string backing, string scratch, string? mountPoint = null, CancellationToken cancellationToken = default)
    {
        if (Unavailable() is { } reason)
        {
            throw new InvalidOperationException(reason);
        }

        string program = await BuildAsync(cancellationToken).ConfigureAwait(false);
        Directory.CreateDirectory(backing);
        string own = Path.Combine(scratch, $"powercut-{Guid.NewGuid():N}");
        string state = Path.Combine(own, "state");
        mountPoint = Path.GetFullPath(mountPoint ?? Path.Combine(own, "mount"));
        Directory.CreateDirectory(state);
        Directory.CreateDirectory(mountPoint);
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardError = true,
            RedirectStandardOutput = false,
            UseShellExecute = false,
        };
        foreach (string argument in (ReadOnlySpan<string>)[Path.GetFullPath(backing), state, mountPoint, "-f", "-s", "-o", "allow_other"])
        {
            start.ArgumentList.Add(argument);
        }

        Process process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start.");
        var mount = new PowerCutMount(process, own, Path.GetFullPath(backing), mountPoint);
        try
        {
            await mount.WaitUntilMountedAsync(cancellationToken).ConfigureAwait(false);
            return mount;
        }
        catch
        {
            await mount.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Reads what the file system holds pending, what it flushed, and whether it was cut.</summary>
    public PowerCutStatus Status()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        long pending = 0;
        long flushes = 0;
        bool cut = false;
        foreach (string line in File.ReadAllLines(ControlFile))
        {
            string[] parts = line.Split(' ');
            long value = long.Parse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture);
            switch (parts[0])
            {
                case "pending":
                    pending = value;
                    break;
                case "flushes":
                    flushes = value;
                    break;
                case "cut":
                    cut = value != 0;
                    break;
                default:
                    break;
            }
        }

        return new PowerCutStatus(pending, flushes, cut);
    }

    /// <summary>
    /// Cuts the power: of the writes not flushed, in the order made, the first <paramref name="keptWrites"/> survive whole
    /// and the first <paramref name="tornSectors"/> sectors of the next one (a torn write); the rest, and every directory
    /// change not flushed, are gone from <see cref="Backing"/>. Every later call on the mount fails with EIO.
    /// Kill the processes that write first: a cut drops what they did not flush, not what they do next.
    /// </summary>
    public void Cut(long keptWrites = 0, int tornSectors = 0)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ArgumentOutOfRangeException.ThrowIfNegative(keptWrites);
        ArgumentOutOfRangeException.ThrowIfNegative(tornSectors);
        Command(string.Create(CultureInfo.InvariantCulture, $"cut {keptWrites} {tornSectors}"));
    }

    private void Command(string command)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        using var control = new FileStream(ControlFile, FileMode.Open, FileAccess.Write);
        control.Write(System.Text.Encoding.ASCII.GetBytes(command + "\n"));
        control.Flush();
    }

    /// <summary>
    /// Makes everything written so far durable, as a sync of the whole device would: the state a round starts from, such
    /// as a server's freshly initialised data directory, which its own tools write without flushing.
    /// </summary>
    public void Sync() => Command("sync");

    /// <summary>Unmounts (lazily when the mount is busy), stops the file system and deletes its working copies; the backing folder stays.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (await FusermountAsync("-u").ConfigureAwait(false) != 0)
        {
            await FusermountAsync("-uz").ConfigureAwait(false);
        }

        using (var exit = new CancellationTokenSource(s_exitTimeout))
        {
            try
            {
                await _process.WaitForExitAsync(exit.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                _process.Kill();
                await _process.WaitForExitAsync().ConfigureAwait(false);
            }
        }

        _process.Dispose();
        try
        {
            Directory.Delete(_scratch, recursive: true);
        }
        catch (IOException)
        {
            // A mount detached lazily may still be draining; the temp cleaner takes the rest.
        }
    }

    private string ControlFile => Path.Combine(MountPoint, ControlFileName);

    private async Task WaitUntilMountedAsync(CancellationToken cancellationToken)
    {
        var waited = Stopwatch.StartNew();
        while (!File.Exists(ControlFile))
        {
            if (_process.HasExited)
            {
                string error = (await _standardError.ConfigureAwait(false)).Trim();
                throw new InvalidOperationException($"The power-cut file system exited ({_process.ExitCode}) before mounting: {error}");
            }

            if (waited.Elapsed > s_mountTimeout)
            {
                throw new InvalidOperationException($"The power-cut file system did not mount at {MountPoint} within {s_mountTimeout.TotalSeconds:0} s.");
            }

            await Task.Delay(10, cancellationToken).ConfigureAwait(false);
        }
    }

    private async Task<int> FusermountAsync(string option)
    {
        var start = new ProcessStartInfo("fusermount3") { RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(option);
        start.ArgumentList.Add(MountPoint);
        using Process fusermount = Process.Start(start) ?? throw new InvalidOperationException("fusermount3 did not start.");
        await fusermount.StandardError.ReadToEndAsync().ConfigureAwait(false);
        await fusermount.WaitForExitAsync().ConfigureAwait(false);
        return fusermount.ExitCode;
    }

    /// <summary>Compiles the embedded source into a cache folder named after its hash, once per source and machine.</summary>
    private static async Task<string> BuildAsync(CancellationToken cancellationToken)
    {
        byte[] source = Resource(SourceResource);
        string folder = Path.Combine(Path.GetTempPath(), "kvbench-powercut", Convert.ToHexStringLower(SHA256.HashData(source))[..16]);
        string program = Path.Combine(folder, "powercut");
        await s_buildLock.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            if (File.Exists(program))
            {
                return program;
            }

            Directory.CreateDirectory(folder);
            await File.WriteAllBytesAsync(Path.Combine(folder, "powercut.c"), source, cancellationToken).ConfigureAwait(false);
            await File.WriteAllBytesAsync(Path.Combine(folder, "build.sh"), Resource(BuildScriptResource), cancellationToken).ConfigureAwait(false);
            var start = new ProcessStartInfo("bash") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
            start.ArgumentList.Add(Path.Combine(folder, "build.sh"));
            start.ArgumentList.Add(program);
            using Process build = Process.Start(start) ?? throw new InvalidOperationException("bash did not start.");
            Task<string> output = build.StandardOutput.ReadToEndAsync(cancellationToken);
            string error = await build.StandardError.ReadToEndAsync(cancellationToken).ConfigureAwait(false);
            await build.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
            await output.ConfigureAwait(false);
            return build.ExitCode == 0
                ? program
                : throw new InvalidOperationException($"Building the power-cut file system failed ({build.ExitCode}): {error.Trim()}");
        }
        finally
        {
            s_buildLock.Release();
        }
    }

    private static byte[] Resource(string name)
    {
        using Stream stream = typeof(PowerCutMount).Assembly.GetManifestResourceStream(name)
            ?? throw new InvalidOperationException($"The resource {name} is missing from KvBench.Evaluation.");
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        return copy.ToArray();
    }
}
