using System.Globalization;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

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

    /// <summary>
    /// The cell for the catalog's row <paramref name="row"/> measured at <paramref name="tier"/>: as
    /// <see cref="Label(StoreCapabilities, Durability)"/>, except that a server row whose setting for the tier lets a
    /// killed server lose acknowledged writes (<see cref="ServerRow.WeakerThanTier"/>), or whose server KvBench found to
    /// lose them (<see cref="ServerRow.KnownLoss"/>), is named by what it keeps, never by the tier it falls short of. A
    /// name the catalog does not have gets the tier.
    /// </summary>
    public static string Label(string row, Durability tier)
    {
        ArgumentNullException.ThrowIfNull(row);
        if (!StoreCatalog.AllNames.Contains(row))
        {
            return tier.ToString();
        }

        return StoreCatalog.Row(row) switch
        {
            ServerRow server when server.KnownLoss(tier) is { } known => known,
            ServerRow server when server.WeakerThanTier(tier) is { } mayLose => ServerMemoryFor(mayLose),
            _ => Label(StoreCatalog.DeclaredCapabilities(row), tier),
        };
    }

    /// <summary>The cell for a server that acknowledges writes it may still hold in its own memory for up to <paramref name="mayLose"/>.</summary>
    public static string ServerMemoryFor(TimeSpan mayLose) =>
        string.Create(CultureInfo.InvariantCulture, $"server memory up to {mayLose.TotalMilliseconds:N0} ms");

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
