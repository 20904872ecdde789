using System.Buffers;

using KvBench.Stores.Baselines;

using RocksDbSharp;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// <c>RocksDB_naive</c>: the RocksDB package the way its README shows it: <c>RocksDb.Open(new
/// DbOptions().SetCreateIfMissing(true), path)</c>, <c>db.Put(byte[], byte[])</c> with the default write options
/// (sync off: Buffered, like the tuned row) and <c>db.Get(byte[])</c>, which returns a new array on every call; the
/// caller's spans become new arrays for it, and HaveKey is a Get compared with null.
/// </summary>
internal sealed class RocksDbNaive : IPointTarget
{
    private readonly RocksDbSharp.RocksDb _db;

    public RocksDbNaive(string directory)
    {
        DbOptions options = new DbOptions().SetCreateIfMissing(true);
        _db = RocksDbSharp.RocksDb.Open(options, directory);
        GC.KeepAlive(options);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _db.Put(key.ToArray(), value.ToArray());

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => IPointTarget.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key) => _db.Get(key.ToArray());

    public bool ContainsKey(ReadOnlySpan<byte> key) => Get(key) is not null;

    public void Dispose() => _db.Dispose();
}
