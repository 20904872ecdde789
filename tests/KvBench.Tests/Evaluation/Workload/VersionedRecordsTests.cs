using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Evaluation.Workload;

public sealed class VersionedRecordsTests
{
    [Fact]
    public void Every_rewrite_changes_the_value_and_is_a_version_of_the_same_record()
    {
        var records = new VersionedRecords(new RecordSet(valueBytes: 128), count: 4);
        var seen = new HashSet<string> { Convert.ToHexString(records.Value(2)) };

        for (ulong version = 1; version <= 300; version++)
        {
            byte[] value = records.Rewrite(2);
            Assert.True(seen.Add(Convert.ToHexString(value)), $"Version {version} repeated an earlier value.");
            Assert.Equal(version, records.Records.VersionOf(2, value));
            Assert.Equal(records.Records.Value(2).AsSpan(ValueVersion.MaxStampBytes).ToArray(), value.AsSpan(ValueVersion.MaxStampBytes).ToArray());
        }

        Assert.Null(records.Records.VersionOf(3, records.Value(2)));
    }

    [Fact]
    public void A_write_the_store_never_received_fails_the_check_of_last_writes()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        var records = new VersionedRecords(new RecordSet(valueBytes: 32), count: 10);
        records.Records.Load(store, 10);
        for (int i = 0; i < 10; i++)
        {
            store.Put(records.Key(i), records.Rewrite(i));
        }

        Assert.True(records.VerifyLastWrites(key => store.Get(key)).Ok);

        records.Rewrite(7);
        VerificationResult skipped = records.VerifyLastWrites(key => store.Get(key));

        Assert.Equal(new VerificationResult(10, 0, 1, 7), skipped);
    }

    [Fact]
    public void Adopting_a_store_rewritten_elsewhere_makes_the_next_rewrite_change_its_bytes()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        var set = new RecordSet(valueBytes: 64);
        set.Load(store, 5, version: 3);
        var records = new VersionedRecords(set, count: 5);

        Assert.True(records.Adopt(key => store.Get(key)).Ok);
        Assert.Equal(3UL, records.Version(4));
        Assert.NotEqual(store.Get(records.Key(4)), records.Rewrite(4));
        Assert.Equal(4UL, records.Version(4));

        store.Put(records.Key(1), new byte[64]);
        Assert.Equal(new VerificationResult(5, 0, 1, 1), records.Adopt(key => store.Get(key)));
    }

    [Fact]
    public void Values_too_short_to_carry_a_version_are_refused() =>
        Assert.Throws<ArgumentException>(() => new VersionedRecords(new RecordSet(valueBytes: 4), count: 1));

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(8)]
    [InlineData(100)]
    public void Version_zero_is_the_record_set_value_and_load_and_verify_agree_on_any_version(int valueBytes)
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        var set = new RecordSet(valueBytes);
        byte[] versionZero = new byte[valueBytes];
        set.WriteValue(1, 0, versionZero);

        set.Load(store, 20, batchSize: 1, version: 2);

        Assert.Equal(set.Value(1), versionZero);
        Assert.True(set.Verify(store, 20, version: 2).Ok);
        Assert.Equal(valueBytes > 0, !set.Verify(store, 20, version: 1).Ok);
    }
}
