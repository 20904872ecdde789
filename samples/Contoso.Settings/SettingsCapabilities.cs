using KvBench.Core;

namespace Contoso.Settings;

/// <summary>What the settings store claims; every variant claims the same, the broken ones falsely.</summary>
internal static class SettingsCapabilities
{
    public static StoreCapabilities Declared { get; } = new()
    {
        MaxKeyBytes = SettingsStore.MaxKeyBytes,
        MaxValueBytes = SettingsStore.MaxValueBytes,
        GrowsWithoutRestart = true,

        // WAL with a busy timeout: the app and its CLI write at once, each seeing the other's commits.
        MultiProcess = MultiProcessLevel.Shared,

        // The key is the table's primary key, a BLOB compared with memcmp: a prefix is a range of the index.
        OrderedPrefixScan = true,
        Durability = DurabilityTiers.All,
    };
}
