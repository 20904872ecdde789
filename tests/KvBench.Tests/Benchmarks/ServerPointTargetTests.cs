using KvBench.Benchmarks;
using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Baselines;
using KvBench.Tests.Stores.Servers;

namespace KvBench.Tests.Benchmarks;

/// <summary>
/// The server rows' point-operation targets (<see cref="ServerPointOperations"/>) against KvBench's own servers: each
/// reopens a store it loaded (a run's cases share each row's loaded store), and a raw baseline works on the very store
/// its adapter keeps for the same directory, so the two are measured on the same data.
/// </summary>
[Trait("Category", "Servers")]
[Collection(AloneOnTheServersCollection.Name)]
public sealed class ServerPointTargetTests : IClassFixture<ServerHostsFixture>
{
    private const int TinyRecordCount = 16;

    public static TheoryData<string> ServerPointTypes => new(ServerPointOperations.Types);

    public static TheoryData<string> ServerRows => new(StoreCatalog.AvailableServerNames);

    [Fact]
    public void Every_available_server_row_is_measured_with_its_raw_baseline()
    {
        Assert.All(StoreCatalog.AvailableServerNames, row =>
        {
            Assert.Contains(row, ServerPointOperations.Types);
            Assert.Contains(RowVariants.Name(row, RowVariantKind.Raw), ServerPointOperations.Types);
        });
    }

    [Theory]
    [MemberData(nameof(ServerPointTypes))]
    public void Every_target_reopens_a_store_it_loaded_before(string type)
    {
        using var directory = new TempDirectory();
        var records = new RecordSet(valueBytes: 16);
        using (IPointTarget target = PointTargets.Open(type, directory.Path))
        {
            target.Load(records.Records(0, TinyRecordCount));
        }

        using IPointTarget reopened = PointTargets.Open(type, directory.Path);
        Assert.Equal(records.Value(TinyRecordCount - 1), reopened.Get(records.Key(TinyRecordCount - 1)));
        reopened.Put(records.Key(0), records.Value(1));
        Assert.Equal(records.Value(1), reopened.Get(records.Key(0)));
        Assert.True(reopened.ContainsKey(records.Key(0)));
        Assert.False(reopened.ContainsKey("absent"u8));
    }

    [Theory]
    [MemberData(nameof(ServerRows))]
    public void The_raw_baseline_writes_and_reads_the_store_its_adapter_keeps_for_the_directory(string row)
    {
        using var directory = new TempDirectory();
        var records = new RecordSet(valueBytes: 16);
        using IPointTarget adapter = PointTargets.Open(row, directory.Path);
        using IPointTarget raw = PointTargets.Open(RowVariants.Name(row, RowVariantKind.Raw), directory.Path);

        raw.Put(records.Key(0), records.Value(0));
        adapter.Put(records.Key(1), records.Value(1));

        Assert.Equal(records.Value(0), adapter.Get(records.Key(0)));
        Assert.Equal(records.Value(1), raw.Get(records.Key(1)));
    }
}
