using System.Buffers;

using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

using LiteDB;

namespace KvBench.Benchmarks.Targets.Naive;

/// <summary>
/// <c>LiteDB_naive</c>: what LiteDB's "Getting Started" page shows. A POCO class mapped by <see cref="BsonMapper"/>, a
/// <c>new LiteDatabase(path)</c> in a <c>using</c> around every operation (LiteDB's default, direct connection), a typed
/// collection with Update, then Insert when there was nothing to update, and FindById for reads, in a file of its own.
/// </summary>
/// <remarks>
/// Opening a database per operation builds an engine (file handles, header page, caches) and disposing it checkpoints
/// the log into the data file with an fsync, as the shared row's per-operation engine does, without its mutex.
/// </remarks>
[PointVariant(StoreNames.LiteDb, RowVariantKind.Naive, OnlyValueBytes = PublishedPointOperations.ValueBytes)]
internal sealed class LiteDbNaive(string directory) : IPointTarget
{
    private readonly string _path = Path.Combine(directory, "naive.db");

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using var database = new LiteDatabase(_path);
        ILiteCollection<Entry> entries = database.GetCollection<Entry>("entries");
        var entry = new Entry { Id = key.ToArray(), Value = value.ToArray() };
        if (!entries.Update(entry))
        {
            entries.Insert(entry);
        }
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => PointTargets.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        using var database = new LiteDatabase(_path);
        return database.GetCollection<Entry>("entries").FindById(key.ToArray())?.Value;
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        using var database = new LiteDatabase(_path);
        return database.GetCollection<Entry>("entries").FindById(key.ToArray()) is not null;
    }

    /// <summary>One database and one InsertBulk for the preload, so the load is not what the run waits for.</summary>
    public void Load(RecordSet records, long count)
    {
        using var database = new LiteDatabase(_path);
        database.GetCollection<Entry>("entries").InsertBulk(
            Enumerable.Range(0, checked((int)count)).Select(i => new Entry { Id = records.Key(i), Value = records.Value(i) }));
    }

    public void Dispose()
    {
    }

    /// <summary>The document class, mapped by convention: <c>Id</c> becomes <c>_id</c>.</summary>
    internal sealed class Entry
    {
        public byte[] Id { get; set; } = [];

        public byte[] Value { get; set; } = [];
    }
}
