using KvBench.Core;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// LiteDB's two rows, <see cref="StoreNames.LiteDb"/> (shared connection) and <see cref="StoreNames.LiteDbDirect"/>
/// (direct connection). They stay in the catalog so every table shows them with the reason they have no numbers here:
/// the LiteDB package cannot be restored on this machine, and it is pure managed code, so no system library can stand
/// in for it. There is no adapter until the package can be had.
/// </summary>
internal static class LiteDbRows
{
    /// <summary>Why neither row can be opened here: what restore says.</summary>
    internal const string UnavailableReason =
        "the LiteDB package is not served by this machine's NuGet source: `dotnet add package LiteDB` says \"There are no "
        + "versions available for the package 'LiteDB'\", and `dotnet add package LiteDB -v 5.0.21` (or 5.0.17) fails with "
        + "NU1101 \"Unable to find package LiteDB. No packages exist with this id in source(s): nuget.org\". LiteDB is pure "
        + "managed code, so no system package can stand in for it.";

    /// <summary>
    /// LiteDB 5.0.x limits an index key to 1,023 bytes (MAX_INDEX_KEY_LENGTH), counting a type byte and a length byte
    /// (IndexNode.GetKeyLength), so a binary <c>_id</c> holds 1,021 bytes.
    /// </summary>
    private const int MaxKeyBytes = 1021;

    /// <summary>
    /// LiteDB 5.0.x refuses a document over 16,683,050 bytes (MAX_DOCUMENT_SIZE, 2,047 data pages of 8,150 bytes). The
    /// row's document is <c>{ _id: key, v: value }</c> in BSON: 4-byte length, <c>_id</c> element (type, "_id\0",
    /// 4-byte length, subtype), <c>v</c> element (type, "v\0", 4-byte length, subtype), closing 0: 23 bytes besides
    /// the key and value. With the longest key, the value keeps the rest.
    /// </summary>
    private const int MaxValueBytes = 16_683_050 - 23 - MaxKeyBytes;

    /// <summary>The shared-connection row: several processes read and write the file, each open locking a named mutex.</summary>
    internal static StoreCapabilities SharedDeclared { get; } = Declared(MultiProcessLevel.Shared);

    /// <summary>
    /// The direct-connection row. LiteDB alone does not stop a second process on Linux (it can open the file and write,
    /// losing data), so this row would hold <see cref="StoreDirectoryLock"/> and be one process at a time.
    /// </summary>
    internal static StoreCapabilities DirectDeclared { get; } = Declared(MultiProcessLevel.Exclusive);

    /// <summary>The rows' availability check: always the restore failure.</summary>
    internal static string? CheckAvailability() => UnavailableReason;

    /// <summary>
    /// The rows' open delegate. The catalog refuses an unavailable row before it gets here; should anything call it
    /// directly, it gives the same answer.
    /// </summary>
    internal static IKeyValueStore Open(string name, StoreOptions options) => throw new StoreUnavailableException(name, UnavailableReason);

    private static StoreCapabilities Declared(MultiProcessLevel multiProcess) => new()
    {
        MaxKeyBytes = MaxKeyBytes,
        MaxValueBytes = MaxValueBytes,
        GrowsWithoutRestart = true,
        MultiProcess = multiProcess,
        // _id is a skip-list index and binary keys compare byte by byte, so a prefix is a range seek.
        OrderedPrefixScan = true,
        // A commit reaches LiteDB's log file without a device flush (the flush comes at checkpoint): a killed process
        // loses nothing, a power cut may lose the last commits.
        Durability = DurabilityTiers.Buffered,
    };
}
