using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Stores.Lmdb;

/// <summary>Work done inside one write transaction of <see cref="LmdbEnvironment.Write"/>.</summary>
/// <remarks>
/// The work items are structs, most of them ref structs over the caller's spans, and the environment is generic over
/// them: a Put or a Get allocates nothing and makes no interface call.
/// </remarks>
internal interface ILmdbWrite
{
    /// <summary>The key and value bytes written, to size a map that has to grow for them.</summary>
    long Bytes { get; }

    /// <returns><c>MDB_SUCCESS</c> to commit, or the LMDB error to abort with (and maybe recover from).</returns>
    int Apply(nint txn, uint dbi);
}

/// <summary>Work done inside one read transaction of <see cref="LmdbEnvironment.Read"/>.</summary>
internal interface ILmdbRead<TResult>
{
    /// <returns><c>MDB_SUCCESS</c> with <paramref name="result"/> set, or the LMDB error to recover from.</returns>
    int Run(nint txn, uint dbi, out TResult result);
}

/// <summary>What a point read returns for a mapped value, or for none.</summary>
internal interface ILmdbFound<TResult>
{
    /// <summary>Called with a span into the map, which is valid only until the read transaction is reset.</summary>
    TResult Found(ReadOnlySpan<byte> value);

    TResult Absent();
}

/// <summary>One key and value.</summary>
internal readonly unsafe ref struct LmdbPut(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) : ILmdbWrite
{
    private readonly ReadOnlySpan<byte> _key = key;
    private readonly ReadOnlySpan<byte> _value = value;

    public long Bytes => _key.Length + (long)_value.Length;

    public int Apply(nint txn, uint dbi) => Put(txn, dbi, _key, _value);

    internal static int Put(nint txn, uint dbi, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* keyBytes = key)
        fixed (byte* valueBytes = value)
        {
            var mdbKey = new MDB_val(keyBytes, key.Length);
            var mdbValue = new MDB_val(valueBytes, value.Length);
            return mdb_put(txn, dbi, &mdbKey, &mdbValue, 0);
        }
    }
}

/// <summary>Many keys and values in one transaction: all of them commit, or none.</summary>
internal readonly struct LmdbPutAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items) : ILmdbWrite
{
    public long Bytes => items.Sum(static item => item.Key.Length + (long)item.Value.Length);

    public int Apply(nint txn, uint dbi)
    {
        for (int i = 0; i < items.Count; i++)
        {
            int rc = LmdbPut.Put(txn, dbi, items[i].Key, items[i].Value);
            if (rc != MDB_SUCCESS)
            {
                return rc;
            }
        }

        return MDB_SUCCESS;
    }
}

/// <summary>Removes a key; <see cref="Removed"/> says whether it was there.</summary>
internal unsafe ref struct LmdbDelete(ReadOnlySpan<byte> key) : ILmdbWrite
{
    private readonly ReadOnlySpan<byte> _key = key;

    public bool Removed { get; private set; }

    public readonly long Bytes => _key.Length;

    public int Apply(nint txn, uint dbi)
    {
        fixed (byte* keyBytes = _key)
        {
            var mdbKey = new MDB_val(keyBytes, _key.Length);
            int rc = mdb_del(txn, dbi, &mdbKey, null);
            Removed = rc == MDB_SUCCESS;
            return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
        }
    }
}

/// <summary>Looks a key up and hands the mapped value, or its absence, to <typeparamref name="TFound"/>.</summary>
internal readonly unsafe ref struct LmdbGet<TFound, TResult>(ReadOnlySpan<byte> key, TFound found) : ILmdbRead<TResult>
    where TFound : struct, ILmdbFound<TResult>
{
    private readonly ReadOnlySpan<byte> _key = key;

    public int Run(nint txn, uint dbi, out TResult result)
    {
        MDB_val value;
        int rc;
        fixed (byte* keyBytes = _key)
        {
            var lookup = new MDB_val(keyBytes, _key.Length);
            rc = mdb_get(txn, dbi, &lookup, &value);
        }

        // The value points into the map: it is used before the transaction is reset.
        result = rc switch
        {
            MDB_SUCCESS => found.Found(value.AsSpan()),
            MDB_NOTFOUND => found.Absent(),
            _ => default!,
        };
        return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
    }
}
