using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>Work done inside one write transaction of <see cref="LmdbEnvironment.Write"/>.</summary>
/// <remarks>
/// The work items are structs, most of them ref structs over the caller's spans, and the environment is generic over
/// them: the work itself allocates nothing and makes no interface call.
/// </remarks>
internal interface ILmdbWrite
{
    /// <summary>The key and value bytes written, to size a map that has to grow for them.</summary>
    long Bytes { get; }

    /// <returns><see cref="MDBResultCode.Success"/> to commit, or the LMDB error to abort with (and maybe recover from).</returns>
    MDBResultCode Apply(LightningTransaction txn, LightningDatabase db);
}

/// <summary>Work done inside one read transaction of <see cref="LmdbEnvironment.Read"/>.</summary>
internal interface ILmdbRead<TResult>
{
    /// <returns><see cref="MDBResultCode.Success"/> with <paramref name="result"/> set, or the LMDB error to recover from.</returns>
    MDBResultCode Run(LightningTransaction txn, LightningDatabase db, out TResult result);
}

/// <summary>What a point read returns for a mapped value, or for none.</summary>
internal interface ILmdbFound<TResult>
{
    /// <summary>Called with a span into the map, which is valid only until the read transaction is reset.</summary>
    TResult Found(ReadOnlySpan<byte> value);

    TResult Absent();
}

/// <summary>One key and value.</summary>
internal readonly ref struct LmdbPut(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) : ILmdbWrite
{
    private readonly ReadOnlySpan<byte> _key = key;
    private readonly ReadOnlySpan<byte> _value = value;

    public long Bytes => _key.Length + (long)_value.Length;

    public MDBResultCode Apply(LightningTransaction txn, LightningDatabase db) => txn.Put(db, _key, _value);
}

/// <summary>Many keys and values in one transaction: all of them commit, or none.</summary>
internal readonly struct LmdbPutAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items) : ILmdbWrite
{
    public long Bytes => items.Sum(static item => item.Key.Length + (long)item.Value.Length);

    public MDBResultCode Apply(LightningTransaction txn, LightningDatabase db)
    {
        for (int i = 0; i < items.Count; i++)
        {
            MDBResultCode rc = txn.Put(db, items[i].Key.AsSpan(), items[i].Value.AsSpan());
            if (rc != MDBResultCode.Success)
            {
                return rc;
            }
        }

        return MDBResultCode.Success;
    }
}

/// <summary>Removes a key; <see cref="Removed"/> says whether it was there.</summary>
internal ref struct LmdbDelete(ReadOnlySpan<byte> key) : ILmdbWrite
{
    private readonly ReadOnlySpan<byte> _key = key;

    public bool Removed { get; private set; }

    public readonly long Bytes => _key.Length;

    public MDBResultCode Apply(LightningTransaction txn, LightningDatabase db)
    {
        MDBResultCode rc = txn.Delete(db, _key);
        Removed = rc == MDBResultCode.Success;
        return rc == MDBResultCode.NotFound ? MDBResultCode.Success : rc;
    }
}

/// <summary>Looks a key up and hands the mapped value, or its absence, to <typeparamref name="TFound"/>.</summary>
/// <remarks>
/// <c>tx.Get</c> and its code, not LightningDB's <c>TryGet</c> and <c>ContainsKey</c> extensions: those report any
/// failure (MDB_MAP_RESIZED among them) as an absent key.
/// </remarks>
internal readonly ref struct LmdbGet<TFound, TResult>(ReadOnlySpan<byte> key, TFound found) : ILmdbRead<TResult>
    where TFound : struct, ILmdbFound<TResult>
{
    private readonly ReadOnlySpan<byte> _key = key;

    public MDBResultCode Run(LightningTransaction txn, LightningDatabase db, out TResult result)
    {
        // The value is an MDBValue pointing into the map: read before the transaction is reset, copied by TFound.
        (MDBResultCode rc, _, MDBValue value) = txn.Get(db, _key);
        result = rc switch
        {
            MDBResultCode.Success => found.Found(value.AsSpan()),
            MDBResultCode.NotFound => found.Absent(),
            _ => default!,
        };
        return rc == MDBResultCode.NotFound ? MDBResultCode.Success : rc;
    }
}
