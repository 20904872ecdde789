using BenchmarkDotNet.Attributes;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Benchmarks;

/// <summary>
/// Writes acknowledged only once they reached the device (<see cref="Durability.Synced"/>), for every catalog row that
/// offers that tier: one Put per call, and a 100-item PutMany (one transaction or batch where the store has one).
/// The dataset is loaded at Buffered durability, then the store is reopened Synced; writes overwrite existing keys
/// round-robin with their own values. A device flush takes milliseconds and varies a lot, so the run strategy is
/// <see cref="SlowOperationsAttribute">monitoring</see>, not the pilot-driven one meant for nanosecond operations.
/// </summary>
[BenchmarkCategory(Categories.SyncedPuts)]
[SlowOperations]
public class SyncedPuts
{
    /// <summary>Items per PutMany. PutMany's Mean, Allocated and ops/sec are per item (OperationsPerInvoke), so they compare with Put's.</summary>
    public const int BatchSize = 100;

    private Dataset? _dataset;
    private IKeyValueStore? _store;
    private PreloadedRecords? _records;
    private KeyValuePair<byte[], byte[]>[][] _batches = [];
    private int _nextBatch;

    /// <summary>The catalog row.</summary>
    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = StoreNames.SqliteWal;

    /// <summary>The length of every value: the smaller point-operation size, where the flush dominates.</summary>
    [Params(128)]
    public int ValueBytes { get; set; } = 128;

    /// <summary>How many records are preloaded; tests shrink it.</summary>
    public int RecordCount { get; set; } = PointOperations.DefaultRecordCount;

    /// <summary>Every available row that offers Synced durability.</summary>
    public static IEnumerable<string> Types =>
        StoreCatalog.AvailableNames.Where(name => StoreCatalog.DeclaredCapabilities(name).Durability.Offers(Durability.Synced));

    [GlobalSetup]
    public void Setup()
    {
        _records = new PreloadedRecords(new RecordSet(ValueBytes), RecordCount);
        _dataset = Dataset.For(Type, ValueBytes, RecordCount);

        // Loaded at Buffered (the same dataset as the row's point operations), then reopened Synced to measure.
        using (IKeyValueStore loaded = _dataset.Open(
            Type,
            open: path => StoreCatalog.Open(Type, new StoreOptions { Directory = path, Durability = Durability.Buffered }),
            load: store => _records.Records.Load(store, RecordCount),
            verify: store => _records.Verify(key => store.Get(key))))
        {
            loaded.Flush();
        }

        _store = StoreCatalog.Open(Type, new StoreOptions { Directory = _dataset.Path, Durability = Durability.Synced });
        _records.Verify(key => _store.Get(key)).ThrowIfFailed(Type);
        _batches = [.. Enumerable.Range(0, Math.Max(1, RecordCount / BatchSize))
            .Select(batch => _records.Records.Records((long)batch * BatchSize % RecordCount, Math.Min(BatchSize, RecordCount)).ToArray())];
    }

    [Benchmark]
    public void Put()
    {
        int index = _records!.Next();
        _store!.Put(_records.Key(index), _records.Value(index));
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void PutMany()
    {
        int batch = _nextBatch;
        _nextBatch = batch + 1 == _batches.Length ? 0 : batch + 1;
        _store!.PutMany(_batches[batch]);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store?.Dispose();
        _dataset?.Dispose();
    }
}
