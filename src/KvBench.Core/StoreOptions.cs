namespace KvBench.Core;

/// <summary>
/// Options every row accepts, whatever it is. A store with settings of its own derives from this record
/// (<c>SqliteStoreOptions</c>, <c>LmdbStoreOptions</c>), so no row carries fields that only another row reads.
/// </summary>
public record StoreOptions
{
    /// <summary>
    /// Where the store lives: for a row in the caller's process, the directory that holds its files, created when missing
    /// (ignored by in-memory stores); for a server row, what it derives the name of its store on the server from (a
    /// database, a key prefix), so every scratch directory a test or probe makes gives a server row a store of its own,
    /// as it gives an embedded row one. Required.
    /// </summary>
    public required string Directory { get; init; }

    /// <summary>The tier every acknowledged write reaches. Defaults to <see cref="Durability.Buffered"/>.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>Whether this process writes, only reads, or follows a writer. Defaults to <see cref="StoreAccess.ReadWrite"/>.</summary>
    public StoreAccess Access { get; init; } = StoreAccess.ReadWrite;
}
