using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>The check after a kill: an acknowledged record that is missing or changed is lost, an unacknowledged one with bytes of no record is torn.</summary>
public sealed class CrashCheckTests
{
    [Fact]
    public void A_missing_or_changed_acknowledged_record_is_lost_and_a_wrong_unacknowledged_one_torn()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = directory.Path });
        var records = WorkerRecords.For("checked");
        for (long index = 0; index < 12; index++)
        {
            store.Put(records.Key(index), records.Value(index));
        }

        store.Delete(records.Key(5));
        store.Put(records.Key(7), [1, 2, 3]);
        store.Put(records.Key(11), [4]);

        CrashCheck check = CrashCheck.Of(store, records, acknowledged: 10);

        Assert.Equal(new CrashCheck(Lost: 2, Torn: 1, FirstLost: 5), check);
    }

    [Fact]
    public void Records_past_the_acknowledged_ones_may_be_there_or_not()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = directory.Path });
        var records = WorkerRecords.For("checked");
        for (long index = 0; index < 4; index++)
        {
            store.Put(records.Key(index), records.Value(index));
        }

        Assert.Equal(new CrashCheck(Lost: 0, Torn: 0, FirstLost: null), CrashCheck.Of(store, records, acknowledged: 3));
    }

    [Fact]
    public void An_acknowledgement_line_carries_its_index_and_timestamp()
    {
        Assert.Equal(123_456_789L, CrashWriter.AcknowledgedAt("ack 41 123456789"));
        Assert.Null(CrashWriter.AcknowledgedAt("ack 41"));
        Assert.Null(CrashWriter.AcknowledgedAt("kvbench: failed"));
    }
}
