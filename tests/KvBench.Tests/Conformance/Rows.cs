using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Tests.Conformance;

/// <summary>The rows the conformance suite runs over: every store that can be opened on this machine.</summary>
public static class Rows
{
    public static TheoryData<string> Available => new(StoreCatalog.AvailableNames);

    /// <summary>Every (row, tier) the row offers.</summary>
    public static TheoryData<string, Durability> OfferedTiers
    {
        get
        {
            var data = new TheoryData<string, Durability>();
            foreach (string name in StoreCatalog.AvailableNames)
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

    /// <summary>Rows whose data lives in files, so another process or a reopen can see it.</summary>
    public static TheoryData<string> Persistent =>
        new(StoreCatalog.AvailableNames.Where(name => StoreCatalog.DeclaredCapabilities(name).Durability != DurabilityTiers.None));
}
