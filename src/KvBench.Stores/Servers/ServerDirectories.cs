using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>Where KvBench's servers keep their data: one fresh directory per server under the system temp folder.</summary>
internal static class ServerDirectories
{
    /// <summary>Every user may create a directory here (mode 1777, as /tmp), since PostgreSQL and MariaDB run as users of their own.</summary>
    private const UnixFileMode Shared =
        UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute
        | UnixFileMode.GroupRead | UnixFileMode.GroupWrite | UnixFileMode.GroupExecute
        | UnixFileMode.OtherRead | UnixFileMode.OtherWrite | UnixFileMode.OtherExecute
        | UnixFileMode.StickyBit;

    /// <summary>The folder that holds every server's data directory.</summary>
    public static string Root { get; } = Path.Combine(Path.GetTempPath(), "kvbench-servers");

    /// <summary>A path for a new data directory, not yet created; its parent exists and lets the server's user create it.</summary>
    /// <param name="rowName">The row, which names the directory.</param>
    /// <param name="tiers">The tiers the server is set up for, which name it too.</param>
    /// <param name="parent">The folder to put it in; default (<see langword="null"/>): <see cref="Root"/>.</param>
    public static string NewDataDirectory(string rowName, DurabilityTiers tiers, string? parent = null)
    {
        parent ??= Root;
        if (!Directory.Exists(parent))
        {
            CreateShared(parent);
        }

        return Path.Combine(parent, $"{rowName}-{tiers}-{Guid.NewGuid():N}".ToLowerInvariant());
    }

    /// <summary>Creates <paramref name="path"/> (and its missing parents) so that every user may create files in it, as in /tmp.</summary>
    public static void CreateShared(string path)
    {
        Directory.CreateDirectory(path);
        if (!OperatingSystem.IsWindows())
        {
            // Set after creating: the process's umask takes write bits away from a mode given at creation.
            File.SetUnixFileMode(path, Shared);
        }
    }
}
