using System.Runtime.InteropServices;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores;

/// <summary>
/// Makes the names of a store's files and of its directory durable once it is open at <see cref="Durability.Synced"/>,
/// or at any tier for a row that flushes every write whatever the tier (<see cref="StoreCapabilities.SyncsEveryWrite"/>).
/// A file's fsync keeps its data, not its name: that is its directory's to keep. LMDB and LiteDB flush every commit
/// into files they create at open (data.mdb, kv.db) but never flush the directory they created them in, and KvBench
/// creates the store's directory itself; without this, a power cut after the first acknowledged write may leave no file
/// at all (the power-loss rounds found it; docs/failures.md, "Power loss").
/// </summary>
internal static partial class StoreDirectorySync
{
    /// <summary>O_RDONLY | O_DIRECTORY on Linux.</summary>
    private const int ReadOnlyDirectory = 0x10000;

    /// <summary>
    /// Flushes <paramref name="options"/>' directory and its parent when an embedded row was opened to write at Synced,
    /// or syncs every write.
    /// </summary>
    public static void AfterOpen(StoreRow row, StoreOptions options)
    {
        // A row that flushes every write whatever the tier promises Synced at Buffered too, so its names must survive as well.
        bool synced = options.Durability == Durability.Synced || row.Declared.SyncsEveryWrite;
        if (row is ServerRow || !synced || options.Access != StoreAccess.ReadWrite || !OperatingSystem.IsLinux())
        {
            return;
        }

        string directory = Path.GetFullPath(options.Directory);
        if (!Directory.Exists(directory))
        {
            return;
        }

        Sync(directory);
        if (Path.GetDirectoryName(directory) is { } parent)
        {
            Sync(parent);
        }
    }

    /// <summary>
    /// fsync of a directory, which makes the names in it durable (a create, a rename): .NET has no call for it, so the
    /// directory is opened and flushed by hand. The FileSystem row flushes its renames through it too.
    /// </summary>
    public static void Sync(string directory)
    {
        int fd = Open(directory, ReadOnlyDirectory);
        if (fd < 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            throw new IOException($"Opening directory '{directory}' to sync it failed: {Marshal.GetPInvokeErrorMessage(errno)}");
        }

        try
        {
            if (FSync(fd) != 0)
            {
                int errno = Marshal.GetLastPInvokeError();
                throw new IOException($"fsync of directory '{directory}' failed: {Marshal.GetPInvokeErrorMessage(errno)}");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int FSync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int Close(int fd);
}
