namespace KvBench.Core;

/// <summary>
/// The checks kvbench makes before any row's own open runs, in one place for its own rows (KvBench.Stores) and a team's
/// (<see cref="KeyValueStoreDefinition.CheckOpen"/>), so both answer a bad open with the same typed error.
/// </summary>
internal static class OpenChecks
{
    /// <summary>
    /// Throws when row <paramref name="name"/> cannot be opened with <paramref name="options"/>: it is unavailable here
    /// (<paramref name="unavailableReason"/>), it keeps data but not at the tier asked for (<paramref name="offered"/>), or
    /// a read-only or secondary open finds no store (<paramref name="holdsStore"/>, asked with a full path), so such an
    /// open creates nothing.
    /// </summary>
    public static void Check(string name, StoreOptions options, string? unavailableReason, DurabilityTiers offered, Func<string, bool> holdsStore)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (unavailableReason is not null)
        {
            throw new StoreUnavailableException(name, unavailableReason);
        }

        // A row that keeps nothing (the Memory floor) opens at any tier: its capabilities already say it offers none.
        if (offered != DurabilityTiers.None && !offered.Offers(options.Durability))
        {
            throw new DurabilityNotOfferedException(name, options.Durability, offered);
        }

        if (options.Access != StoreAccess.ReadWrite && !holdsStore(Path.GetFullPath(options.Directory)))
        {
            throw new StoreNotFoundException(name, options.Directory, options.Access);
        }
    }
}
