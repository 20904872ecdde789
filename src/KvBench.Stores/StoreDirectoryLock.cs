using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// A lock on a store directory for stores with no lock of their own: a <c>LOCK</c> file held open for the store's
/// lifetime, which .NET takes on Linux as a non-blocking <c>flock</c>. <see cref="Acquire"/> holds it alone
/// (<see cref="FileShare.None"/>, <c>LOCK_EX</c>); <see cref="AcquireShared"/> holds it beside other shared holders
/// (<c>LOCK_SH</c>), so a store several processes may open together keeps out one that must be alone, and the other
/// way round. A conflicting open fails at once, from another process or this one (each open is its own lock holder),
/// and the kernel releases the lock when the holder dies, so a killed process never leaves a store locked.
/// </summary>
internal sealed class StoreDirectoryLock : IDisposable
{
    internal const string FileName = "LOCK";

    private readonly FileStream _file;

    private StoreDirectoryLock(FileStream file) => _file = file;

    /// <summary>Holds <paramref name="directory"/> alone.</summary>
    /// <exception cref="StoreLockedException">Another holder, exclusive or shared, has the directory.</exception>
    public static StoreDirectoryLock Acquire(string storeName, string directory) =>
        Open(storeName, directory, FileAccess.ReadWrite, FileShare.None);

    /// <summary>Holds <paramref name="directory"/> beside other shared holders.</summary>
    /// <exception cref="StoreLockedException">An exclusive holder has the directory.</exception>
    // .NET takes LOCK_SH for any share but None; read-only access keeps it from asking for more than the lock needs.
    public static StoreDirectoryLock AcquireShared(string storeName, string directory) =>
        Open(storeName, directory, FileAccess.Read, FileShare.ReadWrite);

    /// <summary>
    /// Whether <paramref name="directory"/>'s lock is free of exclusive holders at this moment: a shared hold taken and
    /// released at once. After a failed <see cref="Acquire"/>, <see langword="true"/> means shared holders have it.
    /// </summary>
    public static bool HasNoExclusiveHolder(string directory)
    {
        try
        {
            AcquireShared(string.Empty, directory).Dispose();
            return true;
        }
        catch (StoreLockedException)
        {
            return false;
        }
    }

    public void Dispose() => _file.Dispose();

    private static StoreDirectoryLock Open(string storeName, string directory, FileAccess access, FileShare share)
    {
        string path = Path.Combine(directory, FileName);
        try
        {
            return new StoreDirectoryLock(new FileStream(path, FileMode.OpenOrCreate, access, share, bufferSize: 1));
        }
        catch (IOException error) when (error is not (FileNotFoundException or DirectoryNotFoundException or PathTooLongException))
        {
            throw new StoreLockedException(storeName, directory, error);
        }
    }
}
