using System.Buffers;

using KvBench.Stores.Baselines;

using RocksDbSharp;

namespace KvBench.Stores.RocksDb;

/// <summary>
/// <c>RocksDB_raw</c>: the RocksDB package used directly through its documented <see cref="RocksDb"/> API, opened
/// with the adapter's options (create_if_missing, keep_log_file_num 2, everything else RocksDB's default), writes with
/// sync off (Buffered). Reads take the package's non-allocating calls: <c>Get(key, buffer, offset, length)</c> into a
/// buffer kept for the target's life (grown when a value does not fit), <c>HasKey(span)</c>, and <c>Get(span)</c> for
/// the array GetArray returns.
/// </summary>
/// <remarks>
/// <c>Get(key, buffer, ...)</c> takes the key as an array, so the span the benchmark passes is copied into an array
/// kept per thread (reallocated only when the key length changes); the value buffer is per thread too, so the target
/// serves many threads as the package's database handle does. Inside, the package calls <c>rocksdb_get</c>, which
/// copies the value into a malloc'ed block that is copied
/// again into the buffer; the adapter reads with <c>rocksdb_get_pinned</c> and copies once. Adapter ÷ raw is therefore
/// what StoreAdapter's gate, error typing and checks cost, less what the pinned read saves.
/// </remarks>
internal sealed class RocksDbRaw : IPointTarget
{
    private readonly RocksDbSharp.RocksDb _db;
    private readonly ReadOptions _readOptions = new();
    private readonly WriteOptions _writeOptions = new WriteOptions().SetSync(false);

    [ThreadStatic]
    private static byte[]? s_key;

    [ThreadStatic]
    private static byte[]? s_value;

    public RocksDbRaw(string directory)
    {
        DbOptions options = new DbOptions().SetCreateIfMissing(true).SetKeepLogFileNum(2);
        _db = RocksDbSharp.RocksDb.Open(options, directory);
        GC.KeepAlive(options);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _db.Put(key, value, cf: null, _writeOptions);

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        byte[] keyArray = KeyArray(key);
        byte[] value = s_value ??= new byte[4096];
        long length = _db.Get(keyArray, value, 0, value.Length, cf: null, _readOptions);
        if (length < 0)
        {
            return false;
        }

        if (length > value.Length)
        {
            s_value = value = new byte[length];
            length = _db.Get(keyArray, value, 0, value.Length, cf: null, _readOptions);
        }

        value.AsSpan(0, checked((int)length)).CopyTo(destination.GetSpan((int)length));
        destination.Advance((int)length);
        return true;
    }

    public byte[]? Get(ReadOnlySpan<byte> key) => _db.Get(key, cf: null, _readOptions);

    public bool ContainsKey(ReadOnlySpan<byte> key) => _db.HasKey(key, cf: null, _readOptions);

    public void Dispose() => _db.Dispose();

    private static byte[] KeyArray(ReadOnlySpan<byte> key)
    {
        byte[] array = s_key is { } kept && kept.Length == key.Length ? kept : s_key = new byte[key.Length];
        key.CopyTo(array);
        return array;
    }
}
