using System.Buffers;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Stores;
using KvBench.Stores.RocksDb;

using static KvBench.Stores.RocksDb.RocksDbNative;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// <c>RocksDB_raw</c>: RocksDB's C API through the adapter's own binding (<see cref="RocksDbNative"/>), opened with the
/// adapter's options (create_if_missing, keep_log_file_num 2, everything else RocksDB's default); rocksdb_put with
/// sync off (Buffered), rocksdb_get_pinned for reads, the value copied once into the destination.
/// </summary>
/// <remarks>
/// The adapter adds a reference count on the database around every call (a SafeHandle, so a Dispose cannot close it
/// under a call in flight) and StoreAdapter's lifetime gate (a striped count of calls in flight that Dispose waits
/// for), error typing and key/value checks; adapter ÷ raw is what they cost. RocksDB's database handle and the option
/// objects, which nothing changes after they are made, serve many threads at once.
/// </remarks>
[PointVariant(StoreNames.RocksDb, RowVariantKind.Raw, ManyThreads = true)]
internal sealed unsafe class RocksDbRaw : IPointTarget
{
    private readonly nint _db;
    private readonly nint _readOptions;
    private readonly nint _writeOptions;

    public RocksDbRaw(string directory)
    {
        nint options = rocksdb_options_create();
        rocksdb_options_set_create_if_missing(options, 1);
        rocksdb_options_set_keep_log_file_num(options, 2);
        nint error = 0;
        _db = rocksdb_open(options, directory, &error);
        rocksdb_options_destroy(options);
        ThrowIfFailed(error, "open");
        _readOptions = rocksdb_readoptions_create();
        _writeOptions = rocksdb_writeoptions_create();
        rocksdb_writeoptions_set_sync(_writeOptions, 0);
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        nint error = 0;
        fixed (byte* keyBytes = key)
        fixed (byte* valueBytes = value)
        {
            rocksdb_put(_db, _writeOptions, keyBytes, (nuint)key.Length, valueBytes, (nuint)value.Length, &error);
        }

        ThrowIfFailed(error, "put");
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        nint slice = GetPinned(key, out ReadOnlySpan<byte> value);
        if (slice != 0)
        {
            value.CopyTo(destination.GetSpan(value.Length));
            destination.Advance(value.Length);
            rocksdb_pinnableslice_destroy(slice);
        }

        return slice != 0;
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        nint slice = GetPinned(key, out ReadOnlySpan<byte> value);
        byte[]? copy = slice != 0 ? value.ToArray() : null;
        rocksdb_pinnableslice_destroy(slice);
        return copy;
    }

    /// <summary>A full lookup, as the adapter does: RocksDB's C API has no cheaper exact existence check.</summary>
    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        nint slice = GetPinned(key, out _);
        rocksdb_pinnableslice_destroy(slice);
        return slice != 0;
    }

    public void Dispose()
    {
        rocksdb_close(_db);
        rocksdb_readoptions_destroy(_readOptions);
        rocksdb_writeoptions_destroy(_writeOptions);
    }

    private static void ThrowIfFailed(nint error, string operation)
    {
        if (TakeError(error) is { } message)
        {
            throw new KeyValueStoreException($"RocksDB_raw {operation} failed: {message}");
        }
    }

    /// <summary>
    /// The pinned slice of <paramref name="key"/>'s value (0 when absent) and the value it pins. Destroying a 0 slice is
    /// safe (rocksdb_pinnableslice_destroy is a C++ delete), so callers destroy whatever they got.
    /// </summary>
    private nint GetPinned(ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        nint error = 0;
        nint slice;
        fixed (byte* keyBytes = key)
        {
            slice = rocksdb_get_pinned(_db, _readOptions, keyBytes, (nuint)key.Length, &error);
        }

        ThrowIfFailed(error, "get");
        value = default;
        if (slice != 0)
        {
            nuint length;
            byte* bytes = rocksdb_pinnableslice_value(slice, &length);
            value = new ReadOnlySpan<byte>(bytes, checked((int)length));
        }

        return slice;
    }
}
