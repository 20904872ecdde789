using System.Buffers;


using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// <c>LMDB_naive</c>: LightningDB as its README shows it: every operation in a transaction of its own that opens the
/// database again (<c>BeginTransaction</c>, <c>OpenDatabase</c>, then <c>Put</c> and <c>Commit</c>, or with
/// <c>TransactionBeginFlags.ReadOnly</c> a read), reads through the package's <c>TryGet</c> into a new <c>byte[]</c>
/// and HaveKey through its <c>ContainsKey</c>; LightningDB's default open flags, so each thread keeps its reader slot
/// (no <c>NoThreadLocalStorage</c>) and a read-only transaction is begun and aborted per read instead of renewed.
/// </summary>
/// <remarks>
/// Errors are still thrown (<c>ThrowOnError</c>, the package's own), so a failed write cannot pass for a fast one. Two
/// settings stay the tuned row's: <c>NoSync</c>, because every row of the point-operation table is measured at the
/// Buffered tier (LightningDB's default flushes each commit to the device, a different tier, measured in the synced
/// table), and the map size, because the README's default map (10 MiB) fails the preload with MDB_MAP_FULL.
/// </remarks>
internal sealed class LmdbNaive(string directory) : LmdbTarget(directory, EnvironmentOpenFlags.NoSync)
{
    public override void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using LightningTransaction txn = Env.BeginTransaction();
        using LightningDatabase db = txn.OpenDatabase(configuration: new DatabaseConfiguration { Flags = DatabaseOpenFlags.Create });
        txn.Put(db, key, value).ThrowOnError();
        txn.Commit().ThrowOnError();
    }

    public override bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        byte[]? value = Get(key);
        if (value is null)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    public override byte[]? Get(ReadOnlySpan<byte> key)
    {
        using LightningTransaction txn = Env.BeginTransaction(TransactionBeginFlags.ReadOnly);
        using LightningDatabase db = txn.OpenDatabase();
        return txn.TryGet(db, key, out byte[]? value) ? value : null;
    }

    public override bool ContainsKey(ReadOnlySpan<byte> key)
    {
        using LightningTransaction txn = Env.BeginTransaction(TransactionBeginFlags.ReadOnly);
        using LightningDatabase db = txn.OpenDatabase();
        return txn.ContainsKey(db, key);
    }
}
