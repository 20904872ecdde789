using System.Buffers;
using System.Collections.Concurrent;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>The runner's deletes and existence checks, its shaped records, and the checks that catch a store losing either.</summary>
public sealed class DeleteAndHasKeyTests
{
    private static readonly WorkloadSpec s_deletes = new()
    {
        Name = "deletes",
        Mix = new(Read: 0.3, Update: 0.2, Delete: 0.2, HasKey: 0.2, Scan: 0.1),
        Distribution = KeyDistribution.Uniform,
        RecordCount = 300,
        MaxScanLength = 10,
    };

    [Theory]
    [InlineData(MemoryRow.RowName)]
    [InlineData(SqliteRow.WalName)]
    public void Deletes_and_existence_checks_run_with_every_read_right(string row)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(row, new StoreOptions { Directory = directory.Path });

        WorkloadResult result = LoadAndRun(store, s_deletes, threads: 2);

        Assert.True(result.Succeeded, result.Failure);
        Assert.True(result.Of(OperationType.Delete)!.Latency.Count > 0, "no delete ran");
        Assert.True(result.Of(OperationType.HasKey)!.Latency.Count > 0, "no existence check ran");
        Assert.True(result.CheckedReads > result.Of(OperationType.Read)!.Latency.Count, "existence checks and scans are checked too");
        int absent = Enumerable.Range(0, 300).Count(index => !store.ContainsKey(s_deletes.Records().Key(index)));
        Assert.True(absent > 0, "no record was left deleted");
    }

    [Fact]
    public void Variable_lengths_and_prefixed_keys_run_with_every_read_and_scan_right()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadSpec workload = s_deletes with
        {
            KeyBytes = LengthDistribution.Parse("16..48"),
            KeyShape = new KeyShape(8),
            ValueLength = LengthDistribution.Parse("80%:64,20%:3KiB"),
            Mix = new(Read: 0.3, Update: 0.2, Delete: 0.1, HasKey: 0.1, Scan: 0.2, Insert: 0.1),
            Distribution = KeyDistribution.Zipfian,
            ZipfianConstant = 0.7,
        };

        WorkloadResult result = LoadAndRun(store, workload, threads: 2);

        Assert.True(result.Succeeded, result.Failure);
        Assert.True(result.Of(OperationType.Scan)!.Latency.Count > 0);
    }

    [Fact]
    public void Writers_racing_on_a_few_records_never_make_a_right_read_look_wrong()
    {
        // Four threads updating and reading eight records: a writer that begins and ends while another is between its
        // check of being alone and its record of the outcome must not leave that older outcome as the one to expect.
        var contended = new WorkloadSpec { Name = "contended", Mix = new(Read: 0.5, Update: 0.5), Distribution = KeyDistribution.Uniform, RecordCount = 8 };
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = directory.Path });

        WorkloadResult result = LoadAndRun(store, contended, threads: 4, seconds: 2);

        Assert.True(result.Succeeded, result.Failure);
    }

    [Fact]
    public void A_store_that_loses_deletes_fails_the_run()
    {
        using var store = new Broken(StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" }), losesDeletes: true);

        WorkloadResult result = LoadAndRun(store, s_deletes, threads: 1);

        Assert.False(result.Succeeded);
        Assert.Matches("after its delete was acknowledged", result.FirstWrongRead);
    }

    [Fact]
    public void A_store_that_returns_an_older_version_fails_the_run()
    {
        using var store = new Broken(StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" }), losesDeletes: false);

        WorkloadResult result = LoadAndRun(store, YcsbWorkloads.A with { RecordCount = 50, Distribution = KeyDistribution.Uniform }, threads: 1);

        Assert.False(result.Succeeded);
        Assert.Matches("^record [0-9]+ held version [0-9]+ after version [0-9]+ was acknowledged", result.FirstWrongRead);
    }

    [Fact]
    public void A_miss_of_a_record_never_deleted_is_still_a_wrong_read()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadSpec workload = s_deletes with { Mix = new(Read: 0.5, HasKey: 0.5) };
        WorkloadRunner.Load(store, workload);
        store.Delete(workload.Records().Key(17));

        WorkloadResult result = WorkloadRunner.Run(store, workload, Brief(threads: 2));

        Assert.False(result.Succeeded);
        Assert.Matches("^record 17 was (not found|reported absent, though no operation had deleted it)", result.FirstWrongRead);
    }

    [Fact]
    public void A_run_that_logs_acknowledged_writes_refuses_deletes()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });

        Assert.Throws<ArgumentException>(() => WorkloadRunner.Run(store, s_deletes, Brief(threads: 1), new Dictionary<long, ulong>()));
    }

    [Fact]
    public void The_zipfian_constant_sets_how_hot_the_hottest_records_are()
    {
        double Hottest(double constant)
        {
            var random = new Random(11);
            KeyChooser chooser = KeyChooser.Create(KeyDistribution.Zipfian, 1_000, () => 1_000, constant);
            return Enumerable.Range(0, 50_000).Select(_ => chooser.Next(random)).CountBy(index => index).Max(pair => pair.Value) / 50_000.0;
        }

        Assert.True(Hottest(0.99) > 2 * Hottest(0.5), $"0.99: {Hottest(0.99)}, 0.5: {Hottest(0.5)}");
        Assert.Throws<ArgumentOutOfRangeException>(() => KeyChooser.Create(KeyDistribution.Latest, 10, () => 10, 1.0));
    }

    private static WorkloadResult LoadAndRun(IKeyValueStore store, WorkloadSpec workload, int threads, double seconds = 0.3)
    {
        WorkloadRunner.Load(store, workload);
        return WorkloadRunner.Run(store, workload, Brief(threads, seconds));
    }

    private static RunSettings Brief(int threads, double seconds = 0.3) =>
        new() { Threads = threads, Warmup = TimeSpan.FromMilliseconds(50), Duration = TimeSpan.FromSeconds(seconds) };

    /// <summary>A store whose deletes do nothing, or whose reads return the value a key held before its last write.</summary>
    private sealed class Broken(IKeyValueStore inner, bool losesDeletes) : IKeyValueStore
    {
        private readonly ConcurrentDictionary<string, byte[]> _previous = new();

        public string Name => inner.Name;

        public StoreCapabilities Capabilities => inner.Capabilities;

        public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
        {
            if (!losesDeletes && inner.Get(key) is { } old)
            {
                _previous[Convert.ToHexString(key)] = old;
            }

            inner.Put(key, value);
        }

        public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
        {
            if (!losesDeletes && _previous.TryGetValue(Convert.ToHexString(key), out byte[]? stale))
            {
                destination.Write(stale);
                return true;
            }

            return inner.TryGet(key, destination);
        }

        public byte[]? Get(ReadOnlySpan<byte> key) => inner.Get(key);

        public bool ContainsKey(ReadOnlySpan<byte> key) => inner.ContainsKey(key);

        public bool Delete(ReadOnlySpan<byte> key) => losesDeletes ? inner.ContainsKey(key) : inner.Delete(key);

        public IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix) => inner.ScanPrefix(prefix);

        public IEnumerable<KeyValuePair<byte[], byte[]>> ScanFrom(ReadOnlyMemory<byte> startKey, int limit) => inner.ScanFrom(startKey, limit);

        public void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items) => inner.PutMany(items);

        public void Flush() => inner.Flush();

        public void Dispose() => inner.Dispose();
    }
}
