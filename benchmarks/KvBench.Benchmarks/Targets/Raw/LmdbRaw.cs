using KvBench.Evaluation.Measuring;
using KvBench.Stores;

using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// <c>LMDB_raw</c>: one read-only transaction, kept for the target's life and renewed for each read, reset after it
/// (LMDB's advice for a thread that reads often: renewing reuses the reader slot). One is enough for one thread.
/// </summary>
[PointVariant(StoreNames.Lmdb, RowVariantKind.Raw)]
internal sealed class LmdbRaw : LmdbTarget
{
    private readonly nint _reader;

    public LmdbRaw(string directory)
        : base(directory)
    {
        Check(mdb_txn_begin(Env, 0, MDB_RDONLY, out _reader), "mdb_txn_begin");
        mdb_txn_reset(_reader);
    }

    public override void Dispose()
    {
        mdb_txn_abort(_reader);
        base.Dispose();
    }

    protected override nint BeginRead()
    {
        Check(mdb_txn_renew(_reader), "mdb_txn_renew");
        return _reader;
    }

    protected override void EndRead(nint txn) => mdb_txn_reset(txn);
}
