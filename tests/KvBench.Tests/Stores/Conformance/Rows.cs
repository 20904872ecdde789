using KvBench.Core;
using KvBench.Stores;


namespace KvBench.Tests.Stores.Conformance;

/// <summary>
/// The rows the tests run over: every store that can be opened on this machine (<see cref="Available"/> and the rest),
/// and for the conformance suite the strategy rows too (<see cref="WithStrategies"/> and the rest), which honour the same contract.
/// </summary>
public static class Rows
{
    public static TheoryData<string> Available => new(StoreCatalog.AvailableNames);

    /// <summary>Every (row, tier) the row offers.</summary>
    public static TheoryData<string, Durability> OfferedTiers => Tiers(StoreCatalog.AvailableNames);

    /// <summary>Rows whose data lives in files, so another process or a reopen can see it.</summary>
    public static TheoryData<string> Persistent => new(StoreCatalog.AvailableNames.Where(IsPersistent));

    /// <summary><see cref="Available"/> and the strategy rows (<see cref="StoreCatalog.AvailableStrategyNames"/>).</summary>
    public static TheoryData<string> WithStrategies => new(AvailableWithStrategies);

    /// <summary><see cref="OfferedTiers"/> of <see cref="WithStrategies"/>.</summary>
    public static TheoryData<string, Durability> OfferedTiersWithStrategies => Tiers(AvailableWithStrategies);

    /// <summary><see cref="Persistent"/> rows of <see cref="WithStrategies"/>.</summary>
    public static TheoryData<string> PersistentWithStrategies => new(AvailableWithStrategies.Where(IsPersistent));

    /// <summary>The server rows available here (their server installed, or installable when a suite starts it).</summary>
    public static TheoryData<string> Servers => new(StoreCatalog.AvailableServerNames);

    /// <summary><see cref="OfferedTiers"/> of <see cref="Servers"/>.</summary>
    public static TheoryData<string, Durability> ServerTiers => Tiers(StoreCatalog.AvailableServerNames);

    private static IEnumerable<string> AvailableWithStrategies => StoreCatalog.AvailableNames.Concat(StoreCatalog.AvailableStrategyNames);

    private static bool IsPersistent(string name) => StoreCatalog.DeclaredCapabilities(name).Durability != DurabilityTiers.None;

    private static TheoryData<string, Durability> Tiers(IEnumerable<string> names)
    {
        var data = new TheoryData<string, Durability>();
        foreach (string name in names)
        {
            DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
            foreach (Durability durability in Enum.GetValues<Durability>().Where(durability => offered.Offers(durability)))
            {
                data.Add(name, durability);
            }
        }

        return data;
    }
}
