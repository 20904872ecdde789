using System.Buffers;


using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// <c>LMDB_raw</c>: LightningDB used directly with the adapter's Buffered flags (<c>NoThreadLocalStorage | NoSync</c>):
/// a write transaction per Put (<c>BeginTransaction</c>, <c>tx.Put</c>, <c>Commit</c>), and for reads one read-only
/// transaction, kept for the target's life, renewed for each read and reset after it (LMDB's advice for a thread that
/// reads often: renewing reuses the reader slot). One is enough for one thread. <c>tx.Get(db, span)</c> returns the value
/// as an <see cref="MDBValue"/> over the map, copied once into the destination.
/// </summary>
/// <remarks>
/// Single-threaded, as a benchmark drives it: no gate, no map growth, no reader pool, no argument checks. The adapter
/// adds all of those (a gate around every transaction so the map can be resized, a reset read transaction per thread
/// with a shared pool behind it, MDB_MAP_FULL/MDB_MAP_RESIZED recovery, a one-environment-per-process guard, and
/// StoreAdapter's lifetime gate, error typing and key and value checks), so adapter ÷ raw is what they cost.
/// </remarks>
internal sealed class LmdbRaw : LmdbTarget
{
    private readonly LightningTransaction _reader;

    public LmdbRaw(string directory)
        : base(directory, EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.NoSync)
    {
        _reader = Env.BeginTransaction(TransactionBeginFlags.ReadOnly);
        _reader.Reset();
    }

    public override void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using LightningTransaction txn = Env.BeginTransaction();
        txn.Put(Db, key, value).ThrowOnError();
        txn.Commit().ThrowOnError();
    }

    public override bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        _reader.Renew();
        try
        {
            (MDBResultCode rc, _, MDBValue value) = _reader.Get(Db, key);
            if (rc.ThrowOnReadError() == MDBResultCode.NotFound)
            {
                return false;
            }

            // The value points into the map: copied before the transaction is reset.
            ReadOnlySpan<byte> bytes = value.AsSpan();
            bytes.CopyTo(destination.GetSpan(bytes.Length));
            destination.Advance(bytes.Length);
            return true;
        }
        finally
        {
            _reader.Reset();
        }
    }

    public override byte[]? Get(ReadOnlySpan<byte> key)
    {
        _reader.Renew();
        try
        {
            (MDBResultCode rc, _, MDBValue value) = _reader.Get(Db, key);
            return rc.ThrowOnReadError() == MDBResultCode.NotFound ? null : value.CopyToNewArray();
        }
        finally
        {
            _reader.Reset();
        }
    }

    /// <summary>LMDB has no cheaper existence check than a lookup; the adapter does the same.</summary>
    public override bool ContainsKey(ReadOnlySpan<byte> key)
    {
        _reader.Renew();
        try
        {
            return _reader.Get(Db, key).resultCode.ThrowOnReadError() == MDBResultCode.Success;
        }
        finally
        {
            _reader.Reset();
        }
    }

    public override void Dispose()
    {
        // LightningDB aborts (and frees) only an active transaction on Dispose.
        _reader.Renew();
        _reader.Dispose();
        base.Dispose();
    }
}
