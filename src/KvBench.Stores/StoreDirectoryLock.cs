using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// An exclusive lock on a store directory for stores with no lock of their own: a <c>LOCK</c> file held open with
/// <see cref="FileShare.None"/>, which .NET takes on Linux as a non-blocking <c>flock</c>. A second open fails at once,
/// from another process or this one (each open is its own lock holder), and the kernel releases the lock when the holder
/// dies, so a killed process never leaves a store locked.
/// </summary>
internal sealed class StoreDirectoryLock : IDisposable
{
    internal const string FileName = "LOCK";

    private readonly FileStream _file;

    private StoreDirectoryLock(FileStream file) => _file = file;

    /// <exception cref="StoreLockedException">Another holder has the directory.</exception>
    public static StoreDirectoryLock Acquire(string storeName, string directory)
    {
        string path = Path.Combine(directory, FileName);
        try
        {
            return new StoreDirectoryLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 1));
        }
        catch (IOException error) when (error is not (FileNotFoundException or DirectoryNotFoundException or PathTooLongException))
        {
            throw new StoreLockedException(storeName, directory, error);
        }
    }

    public void Dispose() => _file.Dispose();
}
