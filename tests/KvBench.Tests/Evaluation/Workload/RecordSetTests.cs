using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Evaluation.Workload;

public sealed class RecordSetTests
{
    [Fact]
    public void The_same_number_gives_the_same_bytes_and_keys_never_collide()
    {
        var first = new RecordSet(valueBytes: 128, number: 7);
        var second = new RecordSet(valueBytes: 128, number: 7);
        var other = new RecordSet(valueBytes: 128, number: 8);

        Assert.Equal(first.Key(42), second.Key(42));
        Assert.Equal(first.Value(42), second.Value(42));
        Assert.NotEqual(first.Key(42), other.Key(42));
        Assert.Empty(
            Enumerable
                .Range(0, 1_000)
                .Select(i => Convert.ToHexString(first.Key(i)))
                .Intersect(Enumerable.Range(0, 1_000).Select(i => Convert.ToHexString(other.Key(i)))));
        Assert.Equal(100_000, Enumerable.Range(0, 100_000).Select(i => Convert.ToHexString(first.Key(i))).Distinct().Count());
        Assert.Equal(9, first.Key(0).Length);
        Assert.Equal(128, first.Value(0).Length);
    }

    [Fact]
    public void Verify_finds_a_missing_and_a_changed_record()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = directory.Path });
        var records = new RecordSet(valueBytes: 16);
        records.Load(store, 500, batchSize: 64);
        Assert.True(records.Verify(store, 500).Ok);

        store.Delete(records.Key(10));
        store.Put(records.Key(20), [1, 2, 3]);
        VerificationResult result = records.Verify(store, 500);

        Assert.Equal((500L, 1L, 1L, 10L), (result.Checked, result.Missing, result.Wrong, result.FirstBadIndex));
        Assert.Throws<InvalidDataException>(() => result.ThrowIfFailed("Memory"));
    }
}
