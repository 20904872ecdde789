using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Dqlite;
using KvBench.Stores.Servers;
using KvBench.Tests.Stores.Servers;


namespace KvBench.Tests.Stores.Dqlite;

/// <summary>
/// A batch that changes more pages than SQLite's default page cache holds (2 MB, spilled after 483 dirty pages) is
/// written whole: with the default, dqlite 1.11 failed such a commit with a disk I/O error once a table held about 10,000
/// records of 128 B, and loading the server sections' 50,000 records stopped there.
/// </summary>
[Trait("Category", "Servers")]
[Collection(AloneOnTheServersCollection.Name)]
public sealed class DqliteBatchTests : IClassFixture<DqliteHostFixture>
{
    /// <summary>More than the 10,000 to 15,000 records at which batches of 1,000 began to fail.</summary>
    private const int Records = 20_000;

    /// <summary>
    /// Records read back, spread over all of them: a batch is one transaction whose count the adapter checks, so a
    /// sample finds a batch lost or torn; reading all 20,000 one at a time would hold the shared cluster's leader for
    /// seconds while other classes trace and time it.
    /// </summary>
    private const int ReadBack = 2_000;

    [Fact]
    public void Batches_of_a_thousand_load_a_table_past_the_default_page_cache()
    {
        using var directory = new TempDirectory();
        var options = new ServerStoreOptions
        {
            Directory = directory.Path,
            Durability = Durability.Synced,
            Endpoint = ((ServerRow)StoreCatalog.Row(DqliteRow.RowName)).EndpointFor(Durability.Synced),
        };
        var records = new RecordSet(valueBytes: 128);
        using IKeyValueStore store = StoreCatalog.Open(DqliteRow.RowName, options);

        records.Load(store, Records, batchSize: 1000);

        VerificationResult read = records.Verify(store, Records, sampleSize: ReadBack);
        Assert.True(read.Ok, $"{read.Missing} of {ReadBack} records read back were missing and {read.Wrong} wrong.");
    }
}
