using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Stores.Conformance;

/// <summary>KvBench.Testing's conformance suite over rows of KvBench's own catalog, each opened by its name.</summary>
public abstract class CatalogConformanceSuite : ConformanceSuite
{
    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);
}

/// <summary>
/// The suite over every name in <see cref="StoreCatalog.AvailableNames"/> and <see cref="StoreCatalog.AvailableStrategyNames"/>;
/// what those rows need running is started once for the class (<see cref="RowHostsFixture"/>).
/// </summary>
public sealed class ConformanceTests : CatalogConformanceSuite, IClassFixture<RowHostsFixture>
{
    public static TheoryData<string> RowsUnderTest => Rows.WithStrategies;

    public static TheoryData<string, Durability> TiersUnderTest => Rows.OfferedTiersWithStrategies;

    public static TheoryData<string> PersistentRowsUnderTest => Rows.PersistentWithStrategies;

    [Fact]
    public void Memory_declares_no_durability_tier_and_forgets_on_dispose()
    {
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        using (IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, options))
        {
            Assert.Equal(DurabilityTiers.None, store.Capabilities.Durability);
            store.Put(TestData.Key(1), [1]);
        }

        using IKeyValueStore reopened = StoreCatalog.Open(MemoryRow.RowName, options);
        Assert.Null(reopened.Get(TestData.Key(1)));
    }
}

/// <summary>
/// The suite over every server row available here (<see cref="StoreCatalog.AvailableServerNames"/>), their servers
/// installed when missing, started once for the class and stopped after it (<see cref="ServerHostsFixture"/>).
/// </summary>
[Trait("Category", "Servers")]
public sealed class ServerConformanceTests : CatalogConformanceSuite, IClassFixture<ServerHostsFixture>
{
    public static TheoryData<string> RowsUnderTest => Rows.Servers;

    public static TheoryData<string, Durability> TiersUnderTest => Rows.ServerTiers;

    public static TheoryData<string> PersistentRowsUnderTest => Rows.Servers;
}
