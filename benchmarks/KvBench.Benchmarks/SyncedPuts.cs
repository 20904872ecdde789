using BenchmarkDotNet.Attributes;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Sqlite;

namespace KvBench.Benchmarks;

/// <summary>
/// Writes acknowledged only once they reached the device (<see cref="Durability.Synced"/>), for every catalog row that
/// offers that tier: one Put per call, and a 100-item PutMany (one transaction or batch where the store has one).
/// The dataset is loaded at Buffered durability, then the store is reopened Synced; writes overwrite existing keys
/// round-robin, each with the next version of its value, so every measured write changes the bytes its key holds and
/// reaches the device (SQLite skips a write that changes nothing, and with it the flush: see <see cref="ValueVersion"/>).
/// PutMany moves its 100 records to their next versions inside the measured call: 100 eight-byte XORs, nanoseconds
/// against a flush of hundreds of microseconds. Global cleanup fails the case unless every key holds the version
/// written last. A device flush takes milliseconds and varies a lot, so the run strategy is
/// <see cref="SlowOperationsAttribute">monitoring</see>, not the pilot-driven one meant for nanosecond operations.
/// </summary>
[BenchmarkCategory(Categories.SyncedPuts)]
[MeasuredAt(Durability.Synced)]
[SlowOperations]
public class SyncedPuts
{
    /// <summary>Items per PutMany. PutMany's Mean, Allocated and ops/sec are per item (OperationsPerInvoke), so they compare with Put's.</summary>
    public const int BatchSize = 100;

    private Dataset? _dataset;
    private IKeyValueStore? _store;
    private VersionedRecords? _records;
    private KeyValuePair<byte[], byte[]>[][] _batches = [];
    private int[] _batchStarts = [];
    private int _nextBatch;

    /// <summary>The catalog row.</summary>
    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = SqliteRow.WalName;

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
        RecordCount = PreloadedRecords.For(Type, RecordCount);
        _records = new VersionedRecords(new RecordSet(ValueBytes), RecordCount);
        _dataset = Dataset.For(Type, ValueBytes, RecordCount);

        // Loaded at Buffered (the same dataset as the row's point operations), then reopened Synced to measure.
        using (IKeyValueStore loaded = _dataset.Open(
            Type,
            open: path => StoreCatalog.Open(Type, new StoreOptions { Directory = path, Durability = Durability.Buffered }),
            load: store => _records.Records.Load(store, RecordCount),
            verify: store => _records.Adopt(key => store.Get(key))))
        {
            loaded.Flush();
        }

        _store = StoreCatalog.Open(Type, new StoreOptions { Directory = _dataset.Path, Durability = Durability.Synced });
        _records.VerifyLastWrites(key => _store.Get(key)).ThrowIfFailed(Type);
        _batchStarts = [.. Enumerable.Range(0, Math.Max(1, RecordCount / BatchSize)).Select(batch => batch * BatchSize % RecordCount)];
        _batches = [.. _batchStarts.Select(start => _records.Batch(start, Math.Min(BatchSize, RecordCount)))];
    }

    [Benchmark]
    [WritesDataset]
    public void Put()
    {
        int index = _records!.Next();
        _store!.Put(_records.Key(index), _records.Rewrite(index));
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    [WritesDataset]
    public void PutMany()
    {
        int batch = _nextBatch;
        _nextBatch = batch + 1 == _batches.Length ? 0 : batch + 1;
        KeyValuePair<byte[], byte[]>[] items = _batches[batch];
        for (int i = 0; i < items.Length; i++)
        {
            _records!.Rewrite((_batchStarts[batch] + i) % RecordCount);
        }

        _store!.PutMany(items);
    }

    /// <summary>Fails the case when any key does not hold the version written last: a skipped write is no result.</summary>
    [GlobalCleanup]
    public void Cleanup() => Dataset.CloseChecked(_dataset, Type, _records, _store, key => _store!.Get(key));
}
