using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Faster;


namespace KvBench.Tests.Stores.Faster;

public sealed class FasterStoreTests
{
    [Fact]
    public void A_reopened_store_finds_every_flushed_record_including_those_read_back_from_disk()
    {
        // 5,000 records of 16 KiB are 80 MiB: more than the 64 MiB of log FASTER keeps in memory, so some records live
        // only in the log file and their reads go pending. Deletes and overwrites of records that already left memory
        // are what FASTER's own iterator gets wrong (see FasterStore.ScanPrefixCore).
        const int Count = 5_000;
        var records = new RecordSet(valueBytes: 16 * 1024);
        static bool IsDeleted(int index) => index % 50 == 3;
        static bool IsOverwritten(int index) => index % 70 == 5;
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        using (IKeyValueStore store = StoreCatalog.Open(FasterRow.RowName, options))
        {
            records.Load(store, Count);
            for (int i = 0; i < Count; i++)
            {
                if (IsDeleted(i))
                {
                    Assert.True(store.Delete(records.Key(i)));
                }
                else if (IsOverwritten(i))
                {
                    store.Put(records.Key(i), TestData.Bytes(100, stream: i));
                }
            }

            store.Flush();
        }

        using IKeyValueStore reopened = StoreCatalog.Open(FasterRow.RowName, options);
        var expected = new List<KeyValuePair<byte[], byte[]>>();
        for (int i = 0; i < Count; i++)
        {
            byte[]? value = IsDeleted(i) ? null : IsOverwritten(i) ? TestData.Bytes(100, stream: i) : records.Value(i);
            Assert.Equal(value, reopened.Get(records.Key(i)));
            if (value is not null)
            {
                expected.Add(new(records.Key(i), value));
            }
        }

        Assert.True(Assert.IsType<FasterStore>(reopened).PendingReads > 0, "No read went to the log file; the test did not cover reads from disk.");
        Assert.Equal(expected.OrderBy(entry => entry.Key, ByteKeys.Comparer), reopened.ScanPrefix(ReadOnlyMemory<byte>.Empty));
    }

    [Fact]
    public async Task A_second_open_of_an_open_store_is_refused_at_once()
    {
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        using IKeyValueStore first = StoreCatalog.Open(FasterRow.RowName, options);
        first.Put([1], [1]);

        // The bound only guards against a hang: the lock is tried without waiting.
        Task<IKeyValueStore> second = Task.Run(() => StoreCatalog.Open(FasterRow.RowName, options));
        StoreLockedException error = await Assert.ThrowsAsync<StoreLockedException>(() => second.WaitAsync(TimeSpan.FromSeconds(2)));

        Assert.Equal(directory.Path, error.Directory);
        Assert.Equal([1], first.Get([1]));
    }

    [Fact]
    public void The_longest_key_and_the_longest_value_fit_in_one_record_and_survive_a_reopen()
    {
        StoreCapabilities declared = StoreCatalog.DeclaredCapabilities(FasterRow.RowName);
        byte[] key = TestData.Bytes(declared.MaxKeyBytes, stream: 1);
        byte[] value = TestData.Bytes(declared.MaxValueBytes, stream: 2);
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        using (IKeyValueStore store = StoreCatalog.Open(FasterRow.RowName, options))
        {
            store.Put(key, value);
            Assert.Equal(value, store.Get(key));
            store.Flush();
        }

        using IKeyValueStore reopened = StoreCatalog.Open(FasterRow.RowName, options);
        Assert.Equal(value, reopened.Get(key));
    }

    [Fact]
    public void Synced_durability_is_not_offered_and_is_refused_before_anything_is_created()
    {
        using var directory = new TempDirectory();
        string storeDirectory = directory.Combine("store");

        Assert.False(StoreCatalog.DeclaredCapabilities(FasterRow.RowName).Durability.Offers(Durability.Synced));
        Assert.Throws<DurabilityNotOfferedException>(() =>
            StoreCatalog.Open(FasterRow.RowName, new StoreOptions { Directory = storeDirectory, Durability = Durability.Synced }));
        Assert.False(Directory.Exists(storeDirectory));
    }
}
