using KvBench.Benchmarks.Targets.Raw;
using KvBench.Evaluation.Measuring;
using KvBench.Stores;

using static KvBench.Stores.Lmdb.LmdbNative;

namespace KvBench.Benchmarks.Targets.Naive;

/// <summary>
/// <c>LMDB_naive</c>: every read, HaveKey included, in a read-write transaction of its own (mdb_txn_begin without
/// MDB_RDONLY), ended with an abort as a disposed, uncommitted transaction is. That is what code that opens "a
/// transaction" for everything does: each read then waits for LMDB's writer lock, which serialises it with every
/// writer in every process, instead of reading a snapshot. Same environment, flags and map as the tuned row.
/// </summary>
[PointVariant(StoreNames.Lmdb, RowVariantKind.Naive)]
internal sealed class LmdbNaive(string directory) : LmdbTarget(directory)
{
    protected override nint BeginRead() => BeginWrite();

    protected override void EndRead(nint txn) => mdb_txn_abort(txn);
}
