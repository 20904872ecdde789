using System.Buffers;

using BenchmarkDotNet.Attributes;

using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Reports.Sections.PointOperations;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// The point-operation cases of <see cref="PointOperations"/> (the embedded rows) and <see cref="ServerPointOperations"/>
/// (the server rows): one Put, Get or HaveKey per call on a dataset preloaded to <see cref="DefaultRecordCount"/>
/// records (fewer for a row that builds an engine per operation: <see cref="PreloadedRecords"/>), for each row, its
/// raw-driver baseline (<c>_raw</c>) and its naive usages (<c>_naive</c>), at the tier <see cref="PointTargets.TierOf"/>
/// gives. Keys are 9 bytes from a numbered <see cref="RecordSet"/>; Put overwrites existing keys round-robin, each time
/// with the next version of the key's value, so the dataset keeps its size and every measured write changes the bytes its
/// key holds (SQLite skips a write that changes nothing: see <see cref="ValueVersion"/>); reads always hit. Global
/// cleanup reads every key back and fails the case unless each holds the version written last. The data fits in the
/// page cache: "warm".
/// </summary>
public abstract class PointOperationCases
{
    /// <summary>
    /// The same for every row. Each row and value size loads it once per run (see <see cref="Dataset"/>), about 40
    /// loads, and the slowest loader, FileSystem (a file created and renamed per record), creates files slowly enough
    /// that 5,000 records are what keeps its loads inside the default run's 15 minutes. A larger set lengthens the load,
    /// not the measurement: 5 MB per row stays warm in the page cache as 50 MB would, and every B-tree here is already
    /// more than one level deep.
    /// </summary>
    public const int DefaultRecordCount = 5_000;

    private readonly ArrayBufferWriter<byte> _buffer = new();
    private PreloadedTarget? _preloaded;
    private IPointTarget? _target;
    private VersionedRecords? _records;

    /// <summary>The row: a catalog name, or a raw or naive variant of one; each concrete class names its rows.</summary>
    public abstract string Type { get; set; }

    /// <summary>The length of every value.</summary>
    [Params(128, 1028)]
    public int ValueBytes { get; set; } = 128;

    /// <summary>How many records are preloaded; tests shrink it, and <see cref="PreloadedRecords"/> does for some rows.</summary>
    public int RecordCount { get; set; } = DefaultRecordCount;

    /// <summary>
    /// Whether <paramref name="method"/> is measured at <paramref name="valueBytes"/>: Put and Get at every size,
    /// <see cref="GetArray"/> and <see cref="HaveKey"/> at <see cref="PublishedPointOperations.ValueBytes"/> only. What
    /// GetArray adds to Get is a new array, which the Allocated column shows and which at 1028 B differs only by its
    /// length; HaveKey returns no value. Their second size would add dozens of cases, minutes that the default run's 15
    /// cannot spare.
    /// </summary>
    public static bool MeasuresAt(string method, int valueBytes) =>
        method is not (nameof(GetArray) or nameof(HaveKey)) || valueBytes == PublishedPointOperations.ValueBytes;

    [GlobalSetup]
    public void Setup()
    {
        _preloaded = PreloadedTarget.Open(Type, ValueBytes, RecordCount);
        _records = _preloaded.Records;
        _target = _preloaded.Target;

        // Grown once here, so no measured Get pays for growing the reused buffer.
        _buffer.GetSpan(ValueBytes);
    }

    [Benchmark]
    [WritesDataset]
    public void Put()
    {
        int index = _records!.Next();
        _target!.Put(_records.Key(index), _records.Rewrite(index));
    }

    /// <summary>Get through TryGet into a buffer reused by every call.</summary>
    [Benchmark]
    public bool Get()
    {
        _buffer.ResetWrittenCount();
        return _target!.TryGet(_records!.Key(_records.Next()), _buffer);
    }

    /// <summary>
    /// Get returning a new array: what the convenience overload costs. Measured at one value size
    /// (<see cref="MeasuresAt"/>), as HaveKey is.
    /// </summary>
    [Benchmark]
    public byte[]? GetArray() => _target!.Get(_records!.Key(_records.Next()));

    [Benchmark]
    public bool HaveKey() => _target!.ContainsKey(_records!.Key(_records.Next()));

    /// <summary>Fails the case when any key does not hold the version written last: a skipped write is no result.</summary>
    [GlobalCleanup]
    public void Cleanup() => PreloadedTarget.CloseChecked(_preloaded);
}
