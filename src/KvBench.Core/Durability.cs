namespace KvBench.Core;

/// <summary>What an acknowledged write survives.</summary>
public enum Durability
{
    /// <summary>The write is in the operating system's cache: it survives the process being killed.</summary>
    Buffered,

    /// <summary>The write reached the device: it survives the machine losing power.</summary>
    Synced,
}

/// <summary>The durability tiers a store offers.</summary>
[Flags]
public enum DurabilityTiers
{
    /// <summary>Nothing survives the process: an in-memory store.</summary>
    None = 0,

    /// <summary><see cref="Durability.Buffered"/> is offered.</summary>
    Buffered = 1,

    /// <summary><see cref="Durability.Synced"/> is offered.</summary>
    Synced = 2,

    /// <summary>Both tiers are offered.</summary>
    All = Buffered | Synced,
}

/// <summary>Conversions between <see cref="Durability"/> and <see cref="DurabilityTiers"/>.</summary>
public static class DurabilityExtensions
{
    /// <summary>The single-tier flag for <paramref name="durability"/>.</summary>
    public static DurabilityTiers ToTier(this Durability durability) => durability switch
    {
        Durability.Buffered => DurabilityTiers.Buffered,
        Durability.Synced => DurabilityTiers.Synced,
        _ => throw new ArgumentOutOfRangeException(nameof(durability), durability, "Unknown durability tier."),
    };

    /// <summary>Whether <paramref name="tiers"/> includes <paramref name="durability"/>.</summary>
    public static bool Offers(this DurabilityTiers tiers, Durability durability) => (tiers & durability.ToTier()) != 0;
}
