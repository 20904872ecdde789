using KvBench.Core;

namespace KvBench.Evaluation.Measuring;

/// <summary>
/// What a row's acknowledged write had reached when a benchmark measured it, as the tables print it, so a store that
/// holds writes in its own memory until <see cref="IKeyValueStore.Flush"/> (FASTER) is never set beside Buffered rows
/// without the table saying so.
/// </summary>
public static class AcknowledgedTier
{
    /// <summary>The column's header.</summary>
    public const string ColumnName = "Acknowledged";

    /// <summary>The cell for a row that holds acknowledged writes in its own memory until a checkpoint.</summary>
    public const string MemoryUntilFlush = "memory until Flush";

    /// <summary>The cell for a row that keeps nothing once its process ends.</summary>
    public const string MemoryOnly = "memory only";

    /// <summary>The cell for a row with capabilities <paramref name="declared"/>, measured at <paramref name="tier"/>.</summary>
    public static string Label(StoreCapabilities declared, Durability tier)
    {
        ArgumentNullException.ThrowIfNull(declared);
        if (declared.Durability == DurabilityTiers.None)
        {
            return MemoryOnly;
        }

        if (!declared.WritesSurviveKillBeforeFlush)
        {
            return MemoryUntilFlush;
        }

        return declared.SyncsEveryWrite ? Durability.Synced.ToString() : tier.ToString();
    }
}
