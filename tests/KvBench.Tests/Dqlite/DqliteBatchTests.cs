using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Tests.Dqlite;

/// <summary>
/// A batch that changes more pages than SQLite's default page cache holds (2 MB, spilled after 483 dirty pages) is
/// written whole: with the default, dqlite 1.11 failed such a commit with a disk I/O error once a table held about 10,000
/// records of 128 B, and loading the server sections' 50,000 records stopped there.
/// </summary>
[Trait("Category", "Servers")]
public sealed class DqliteBatchTests : IClassFixture<DqliteHostFixture>
{
    /// <summary>More than the 10,000 to 15,000 records at which batches of 1,000 began to fail.</summary>
    private const int Records = 20_000;

    [Fact]
    public void Batches_of_a_thousand_load_a_table_past_the_default_page_cache()
    {
        using var directory = new TempDirectory();
        var options = new ServerStoreOptions
        {
            Directory = directory.Path,
            Durability = Durability.Synced,
            Endpoint = ((ServerRow)StoreCatalog.Row(StoreNames.Dqlite)).EndpointFor(Durability.Synced),
        };
        var records = new RecordSet(valueBytes: 128);
        using IKeyValueStore store = StoreCatalog.Open(StoreNames.Dqlite, options);

        records.Load(store, Records, batchSize: 1000);

        VerificationResult read = records.Verify(store, Records);
        Assert.True(read.Ok, $"{read.Missing} of {Records} records were missing and {read.Wrong} wrong.");
    }
}
