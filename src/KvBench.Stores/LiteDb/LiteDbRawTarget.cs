using System.Buffers;

using KvBench.Stores.Baselines;

using LiteDB;

namespace KvBench.Stores.LiteDb;

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

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => IPointTarget.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => Collection.FindById(key.ToArray())?["v"].AsBinary;

    public bool ContainsKey(ReadOnlySpan<byte> key) => Collection.FindById(key.ToArray()) is not null;

    /// <summary>One upsert of every record: one transaction, as the adapter's PutMany.</summary>
    public void Load(IEnumerable<KeyValuePair<byte[], byte[]>> records) =>
        Collection.Upsert(records.Select(record => new BsonDocument { ["_id"] = record.Key, ["v"] = record.Value }));

    public void Dispose() => _database.Dispose();
}
