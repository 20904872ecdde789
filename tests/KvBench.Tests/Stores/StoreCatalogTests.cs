using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Stores.LiteDb;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Stores;

public sealed class StoreCatalogTests
{
    [Fact]
    public void An_unknown_name_is_refused_with_the_known_names()
    {
        using var directory = new TempDirectory();
        ArgumentException error = Assert.Throws<ArgumentException>(() => StoreCatalog.Open("NoSuchStore", new StoreOptions { Directory = directory.Path }));
        Assert.Contains("NoSuchStore", error.Message, StringComparison.Ordinal);
        Assert.All(StoreCatalog.Names, name => Assert.Contains(name, error.Message, StringComparison.Ordinal));
    }

    [Fact]
    public void Names_are_matched_without_regard_to_case_and_reported_as_listed()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open("sqlite_wal", new StoreOptions { Directory = directory.Path });
        Assert.Equal(SqliteRow.WalName, store.Name);
    }

    [Fact]
    public void Every_strategy_row_names_a_compared_row_and_follows_it_in_that_rows_strategy_table()
    {
        Assert.All(StoreCatalog.StrategyRows, row => Assert.Contains(row.StrategyOf, StoreCatalog.Names));
        Assert.All(StoreCatalog.Rows, row => Assert.Null(row.StrategyOf));
        Assert.Equal([SqliteRow.WalName, .. StoreCatalog.AvailableStrategyNames], StoreCatalog.WithStrategies(SqliteRow.WalName.ToUpperInvariant()));
        Assert.Equal([SqliteRow.ScalarName], StoreCatalog.WithStrategies(SqliteRow.ScalarName));
    }

    [Fact]
    public void Every_available_row_declares_what_it_reports_when_opened()
    {
        foreach (string name in StoreCatalog.AvailableNames)
        {
            using var directory = new TempDirectory();
            using IKeyValueStore store = StoreCatalog.Open(name, new StoreOptions { Directory = directory.Path });
            Assert.Equal(StoreCatalog.DeclaredCapabilities(name), store.Capabilities);
        }
    }

    [Fact]
    public void Every_unavailable_row_says_why_when_opened()
    {
        foreach (string name in StoreCatalog.Names.Except(StoreCatalog.AvailableNames))
        {
            using var directory = new TempDirectory();
            StoreUnavailableException error = Assert.Throws<StoreUnavailableException>(() =>
                StoreCatalog.Open(name, new StoreOptions { Directory = directory.Path }));
            Assert.Equal(StoreCatalog.UnavailableReason(name), error.Reason);
        }
    }

    [Fact]
    public void A_tier_a_persistent_row_does_not_offer_is_refused_rather_than_weakened()
    {
        foreach (string name in StoreCatalog.AvailableNames)
        {
            DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
            foreach (Durability durability in Enum.GetValues<Durability>().Where(tier => offered != DurabilityTiers.None && !offered.Offers(tier)))
            {
                using var directory = new TempDirectory();
                DurabilityNotOfferedException error = Assert.Throws<DurabilityNotOfferedException>(
                    () => StoreCatalog.Open(name, new StoreOptions { Directory = directory.Path, Durability = durability }));
                Assert.Equal(durability, error.Requested);
            }
        }
    }

    [Fact]
    public void Every_available_row_names_the_engine_that_runs_it()
    {
        Assert.All(StoreCatalog.AvailableNames, name => Assert.Matches(@"\d+\.\d+", StoreCatalog.Engine(name)));
        Assert.Contains("Microsoft.Data.Sqlite 10.", StoreCatalog.Engine(SqliteRow.WalName), StringComparison.Ordinal);
        Assert.Contains("SQLite 3.", StoreCatalog.Engine(SqliteRow.WalName), StringComparison.Ordinal);
        Assert.Contains("Microsoft.FASTER.Core 2.", StoreCatalog.Engine(FasterRow.RowName), StringComparison.Ordinal);
        Assert.Contains("LiteDB 5.", StoreCatalog.Engine(LiteDbRow.DirectName), StringComparison.Ordinal);
    }
}
