using System.Diagnostics;

namespace KvBench.Testing;

/// <summary>
/// A size-limited tmpfs mounted on a fresh directory, for filling a disk without filling the machine's; unmounted and
/// removed on dispose. Mounting needs root (CAP_SYS_ADMIN), which the machines KvBench is built and tested on give;
/// where it is refused, <see cref="DiskFullSuite"/> skips and says why.
/// </summary>
public sealed class SmallFileSystem : IDisposable
{
    private readonly TempDirectory _mountPoint = new();

    /// <summary>Mounts a file system of <paramref name="sizeBytes"/> bytes.</summary>
    /// <exception cref="InvalidOperationException">The mount failed, most often for want of root.</exception>
    public SmallFileSystem(long sizeBytes)
    {
        Run("mount", "-t", "tmpfs", "-o", $"size={sizeBytes}", "tmpfs", _mountPoint.Path);
    }

    /// <summary>The mount point's full path.</summary>
    public string Path => _mountPoint.Path;

    /// <summary>The bytes the file system has free now.</summary>
    public long FreeBytes => new DriveInfo(Path).AvailableFreeSpace;

    /// <summary>The full path of <paramref name="name"/> on the file system.</summary>
    public string Combine(string name) => _mountPoint.Combine(name);

    /// <summary>Writes a file of <paramref name="bytes"/> zero bytes (tmpfs allocates them), to be deleted to free space.</summary>
    public string Ballast(long bytes)
    {
        string path = Combine("ballast");
        using var file = new FileStream(path, FileMode.CreateNew);
        byte[] chunk = new byte[1 << 20];
        for (long written = 0; written < bytes; written += chunk.Length)
        {
            file.Write(chunk, 0, (int)Math.Min(chunk.Length, bytes - written));
        }

        return path;
    }

    /// <summary>Unmounts the file system and removes the mount point.</summary>
    public void Dispose()
    {
        // Lazy: a store's file a finalizer has not closed yet must not keep the mount, and the directory, alive.
        Run("umount", "-l", Path);
        _mountPoint.Dispose();
    }

    private static void Run(string program, params string[] arguments)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardError = true, RedirectStandardOutput = true };
        arguments.ToList().ForEach(start.ArgumentList.Add);
        using Process process = Process.Start(start)!;
        string error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"`{program} {string.Join(' ', arguments)}` failed ({process.ExitCode}): {error.Trim()}. Filling a " +
                    $"disk needs a small file system, and mounting one needs root.");
        }
    }
}
