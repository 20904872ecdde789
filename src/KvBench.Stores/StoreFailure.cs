using KvBench.Core;

namespace KvBench.Stores;

/// <summary>What an exception an engine raised means to a user of the contract.</summary>
internal enum StoreFailure
{
    /// <summary>Not the engine's: an argument error, a disposed store, or a contract error already typed. Passed on as it is.</summary>
    NotEngine,

    /// <summary>The engine failed for another reason; passed on as a <see cref="KeyValueStoreException"/> that names the store.</summary>
    Failed,

    /// <summary>The store's files are damaged: <see cref="StoreDamagedException"/>.</summary>
    Damaged,

    /// <summary>The file system is full: <see cref="StoreFullException"/>.</summary>
    Full,
}

/// <summary>Turns engine errors into the contract's typed errors; the one place both an open and a call go through.</summary>
internal static class StoreFailures
{
    /// <summary>ENOSPC: no space left on device (Linux and macOS).</summary>
    private const int NoSpaceErrno = 28;

    /// <summary>EDQUOT on Linux: the user's disk quota is used up, which a user meets the same way as a full disk.</summary>
    private const int QuotaErrno = 122;

    /// <summary>
    /// The typed error for <paramref name="error"/>, or <see langword="null"/> when it is to be passed on unchanged: it
    /// is not the engine's, or it is already a <see cref="KeyValueStoreException"/> that nothing more specific fits.
    /// </summary>
    public static Exception? Translate(string storeName, string directory, StoreFailure failure, Exception error) => failure switch
    {
        StoreFailure.Damaged => new StoreDamagedException(storeName, directory, error),
        StoreFailure.Full => new StoreFullException(storeName, directory, error),
        StoreFailure.Failed when error is not KeyValueStoreException =>
            new KeyValueStoreException($"{storeName} at '{directory}' failed: {error.Message}", error),
        _ => null,
    };

    /// <summary>
    /// The part every engine shares: errors that are already the contract's, and the .NET I/O errors of a full disk.
    /// <see langword="null"/> when the engine's own classifier has to decide.
    /// </summary>
    public static StoreFailure? Common(Exception error) => error switch
    {
        StoreDirectoryException or StoreReadOnlyException
            or StoreUnavailableException or DurabilityNotOfferedException => StoreFailure.NotEngine,
        ArgumentException or ObjectDisposedException or OperationCanceledException or NotSupportedException => StoreFailure.NotEngine,
        IOException io when IsNoSpace(io) => StoreFailure.Full,
        _ => null,
    };

    /// <summary>
    /// What an error means from an engine with no classifier of its own: .NET's I/O errors are failures of the store,
    /// anything else is passed on.
    /// </summary>
    public static StoreFailure DotNetIo(Exception error) =>
        error is IOException or UnauthorizedAccessException ? StoreFailure.Failed : StoreFailure.NotEngine;

    /// <summary>
    /// Whether <paramref name="error"/> is the operating system saying the disk is full: the errno .NET passes on as the
    /// HResult of most I/O errors, or the text of the ones it words itself (a file created with a preallocation size).
    /// </summary>
    public static bool IsNoSpace(Exception error) =>
        error is IOException { HResult: NoSpaceErrno or QuotaErrno }
        || error.Message.Contains("No space left on device", StringComparison.OrdinalIgnoreCase)
        || error.Message.Contains("the disk was full", StringComparison.OrdinalIgnoreCase)
        || (error.InnerException is { } inner && IsNoSpace(inner));
}
