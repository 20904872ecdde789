using System.Buffers;

using KvBench.Evaluation.Workload;
using KvBench.Stores.LiteDb;

using LiteDB;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// LiteDB used directly as its documentation shows, an <see cref="ILiteCollection{T}"/> of <see cref="BsonDocument"/>
/// with Upsert and FindById, on the adapter's connection string (the same file name and connection mode), the key and
/// value as BSON binaries: the raw baseline of both LiteDB rows.
/// </summary>
/// <remarks>
/// The adapter adds StoreAdapter's lifetime gate, error typing and key/value checks; adapter ÷ raw is what they cost.
/// </remarks>
internal abstract class LiteDbRawTarget(string directory, ConnectionType connection) : IPointTarget
{
    private readonly LiteDatabase _database = new(LiteDbRow.ConnectionString(directory, connection, readOnly: false));

    private ILiteCollection<BsonDocument> Collection => _database.GetCollection("kv");

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        Collection.Upsert(new BsonDocument { ["_id"] = key.ToArray(), ["v"] = value.ToArray() });

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => PointTargets.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => Collection.FindById(key.ToArray())?["v"].AsBinary;

    public bool ContainsKey(ReadOnlySpan<byte> key) => Collection.FindById(key.ToArray()) is not null;

    /// <summary>One upsert of every record: one transaction, as the adapter's PutMany.</summary>
    public void Load(RecordSet records, long count) =>
        Collection.Upsert(Enumerable.Range(0, checked((int)count)).Select(i => new BsonDocument { ["_id"] = records.Key(i), ["v"] = records.Value(i) }));

    public void Dispose() => _database.Dispose();
}
