namespace KvBench.Core;

/// <summary>Options every store accepts. A store with settings of its own derives from this record.</summary>
public record StoreOptions
{
    /// <summary>The directory that holds the store's files; created when missing. Ignored by in-memory stores.</summary>
    public required string Directory { get; init; }

    /// <summary>The tier every acknowledged write reaches. Defaults to <see cref="Durability.Buffered"/>.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>Whether this process writes, only reads, or follows a writer. Defaults to <see cref="StoreAccess.ReadWrite"/>.</summary>
    public StoreAccess Access { get; init; } = StoreAccess.ReadWrite;

    /// <summary>
    /// The initial size of the store's file or map, for stores that preallocate (LMDB's map).
    /// <see langword="null"/> leaves the adapter's default. Used by the growth probe.
    /// </summary>
    public long? InitialSizeBytes { get; init; }
}
