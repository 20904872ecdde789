namespace KvBench.Core;

/// <summary>The base of the errors a KvBench store raises about itself (not about its arguments).</summary>
public class KeyValueStoreException : Exception
{
    /// <summary>Creates the error.</summary>
    public KeyValueStoreException(string message, Exception? innerException = null)
        : base(message, innerException)
    {
    }
}

/// <summary>An error about one store in one directory: which row, and where.</summary>
public abstract class StoreDirectoryException : KeyValueStoreException
{
    private protected StoreDirectoryException(string message, string storeName, string directory, Exception? innerException)
        : base(message, innerException)
    {
        StoreName = storeName;
        Directory = directory;
    }

    /// <summary>The row name of the store.</summary>
    public string StoreName { get; }

    /// <summary>The store's directory.</summary>
    public string Directory { get; }
}

/// <summary>Another process holds the store, so this process cannot open it the way it asked.</summary>
public sealed class StoreLockedException : StoreDirectoryException
{
    /// <summary>Creates the error for <paramref name="storeName"/> at <paramref name="directory"/>.</summary>
    public StoreLockedException(string storeName, string directory, Exception? innerException = null)
        : base(
            $"{storeName} at '{directory}' is locked by another process; it allows one process at a time for this access mode.",
            storeName,
            directory,
            innerException)
    {
    }

    /// <summary>
    /// Creates the error for <paramref name="storeName"/> at <paramref name="directory"/>, which <paramref name="heldBy"/>
    /// (another row over the same files, in this process or another) has open in a way the two cannot share.
    /// </summary>
    public StoreLockedException(string storeName, string directory, string heldBy, Exception? innerException = null)
        : base(
            $"{storeName} at '{directory}' is locked: {heldBy} has the same files open, and the two cannot share them.",
            storeName,
            directory,
            innerException)
        => HeldBy = heldBy;

    /// <summary>The row that holds the store, where it is known to be another row over the same files; otherwise <see langword="null"/>.</summary>
    public string? HeldBy { get; }
}

/// <summary>
/// A read-only or secondary open found no store of that kind in the directory. Nothing was created: an open that was
/// asked only to read leaves the file system as it found it.
/// </summary>
public sealed class StoreNotFoundException : StoreDirectoryException
{
    /// <summary>Creates the error for <paramref name="storeName"/> at <paramref name="directory"/>, opened as <paramref name="access"/>.</summary>
    public StoreNotFoundException(string storeName, string directory, StoreAccess access)
        : base($"No {storeName} store at '{directory}' to open {access}; nothing was created there.", storeName, directory, innerException: null)
    {
    }
}

/// <summary>
/// The store's files are damaged: the engine found bytes that are not what it wrote (a failed checksum, a page that is
/// not a page, a file that is not its format). Nothing was written by the call that failed; what else can still be read
/// depends on the engine and on where the damage is.
/// </summary>
public sealed class StoreDamagedException : StoreDirectoryException
{
    /// <summary>Creates the error for <paramref name="storeName"/> at <paramref name="directory"/>, with the engine's own error.</summary>
    public StoreDamagedException(string storeName, string directory, Exception innerException)
        : base($"{storeName} at '{directory}' is damaged: {innerException?.Message}", storeName, directory, innerException)
    {
    }
}

/// <summary>
/// The file system that holds the store has no room for a write. The call that failed is not acknowledged; every write
/// acknowledged before it is kept, and the store accepts writes again once space is freed (RocksDB after it is reopened:
/// a failed write stops its writes until then).
/// </summary>
public sealed class StoreFullException : StoreDirectoryException
{
    /// <summary>Creates the error for <paramref name="storeName"/> at <paramref name="directory"/>, with the engine's own error.</summary>
    public StoreFullException(string storeName, string directory, Exception innerException)
        : base($"{storeName} at '{directory}' is out of disk space; the write was not stored: {innerException?.Message}", storeName, directory, innerException)
    {
    }
}

/// <summary>A write was attempted on a store opened read-only or as a secondary.</summary>
public sealed class StoreReadOnlyException : KeyValueStoreException
{
    /// <summary>Creates the error for <paramref name="storeName"/>.</summary>
    public StoreReadOnlyException(string storeName, StoreAccess access)
        : base($"{storeName} was opened as {access}; it refuses writes.")
    {
        StoreName = storeName;
    }

    /// <summary>The row name of the store.</summary>
    public string StoreName { get; }
}

/// <summary>The store's package or native library cannot be had on this machine.</summary>
public sealed class StoreUnavailableException : KeyValueStoreException
{
    /// <summary>Creates the error for <paramref name="storeName"/> with the <paramref name="reason"/> shown to users.</summary>
    public StoreUnavailableException(string storeName, string reason, Exception? innerException = null)
        : base($"{storeName} is not available here: {reason}", innerException)
    {
        StoreName = storeName;
        Reason = reason;
    }

    /// <summary>The row name of the store.</summary>
    public string StoreName { get; }

    /// <summary>Why the store cannot be opened.</summary>
    public string Reason { get; }
}

/// <summary>The store cannot reach the durability tier asked for; a faster number from a weaker setting is never substituted.</summary>
public sealed class DurabilityNotOfferedException : KeyValueStoreException
{
    /// <summary>Creates the error.</summary>
    public DurabilityNotOfferedException(string storeName, Durability requested, DurabilityTiers offered)
        : base($"{storeName} cannot acknowledge writes at {requested} durability; it offers {offered}.")
    {
        StoreName = storeName;
        Requested = requested;
    }

    /// <summary>The row name of the store.</summary>
    public string StoreName { get; }

    /// <summary>The tier that was asked for.</summary>
    public Durability Requested { get; }
}

/// <summary>An empty key was given; every store refuses it.</summary>
public sealed class EmptyKeyException : ArgumentException
{
    /// <summary>Creates the error.</summary>
    public EmptyKeyException(string paramName)
        : base("A key must have at least one byte.", paramName)
    {
    }
}

/// <summary>A key or value is longer than the store accepts. Nothing was written.</summary>
public abstract class SizeLimitExceededException : ArgumentException
{
    private protected SizeLimitExceededException(string what, string storeName, int actualBytes, int limitBytes, string paramName)
        : base($"The {what} is {actualBytes:N0} bytes; {storeName} accepts at most {limitBytes:N0} bytes.", paramName)
    {
        StoreName = storeName;
        ActualBytes = actualBytes;
        LimitBytes = limitBytes;
    }

    /// <summary>The row name of the store.</summary>
    public string StoreName { get; }

    /// <summary>The length that was given.</summary>
    public int ActualBytes { get; }

    /// <summary>The store's limit.</summary>
    public int LimitBytes { get; }
}

/// <summary>A key is longer than the store accepts (LMDB: 511 bytes). Nothing was written.</summary>
public sealed class KeyTooLargeException : SizeLimitExceededException
{
    /// <summary>Creates the error.</summary>
    public KeyTooLargeException(string storeName, int actualBytes, int limitBytes)
        : base("key", storeName, actualBytes, limitBytes, "key")
    {
    }
}

/// <summary>A value is longer than the store accepts. Nothing was written.</summary>
public sealed class ValueTooLargeException : SizeLimitExceededException
{
    /// <summary>Creates the error.</summary>
    public ValueTooLargeException(string storeName, int actualBytes, int limitBytes)
        : base("value", storeName, actualBytes, limitBytes, "value")
    {
    }
}
