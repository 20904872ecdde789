using System.Buffers;

using KvBench.Stores.Baselines;

using LightningDB;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// LMDB through the LightningDB package used directly: a <see cref="LightningEnvironment"/> with the adapter's default
/// map (<see cref="LmdbStore.DefaultInitialMapBytes"/>, so no measured write meets MDB_MAP_FULL; LightningDB's default
/// of 10 MiB would not hold the preloaded dataset), the subclass's open flags, and the main database loaded in batches
/// as the adapter loads it. The subclass says how each operation uses transactions.
/// </summary>
/// <remarks>
/// The one KvBench piece here is <see cref="LmdbNativeLibrary.EnsureLoaded"/>, which points LightningDB at the LMDB
/// library that loads on this machine (its bundled one, or Debian's where that one does not load); every call after it
/// is LightningDB's own.
/// </remarks>
internal abstract class LmdbTarget : IPointTarget
{
    /// <summary>RecordSet.Load's default batch, which the adapter's load uses.</summary>
    private const int LoadBatchRecords = 1000;

    protected LmdbTarget(string directory, EnvironmentOpenFlags flags)
    {
        LmdbNativeLibrary.EnsureLoaded();
        Env = new LightningEnvironment(directory, new EnvironmentConfiguration { MapSize = LmdbStore.DefaultInitialMapBytes });
        try
        {
            Env.Open(flags);
            using LightningTransaction txn = Env.BeginTransaction();
            Db = txn.OpenDatabase(configuration: new DatabaseConfiguration { Flags = DatabaseOpenFlags.Create });
            txn.Commit().ThrowOnError();
        }
        catch
        {
            // LightningDB's finalizer throws for an environment that was never disposed.
            Env.Dispose();
            throw;
        }
    }

    protected LightningEnvironment Env { get; }

    /// <summary>The main database, opened once; its handle serves every later transaction.</summary>
    protected LightningDatabase Db { get; }

    public abstract void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    public abstract bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    public abstract byte[]? Get(ReadOnlySpan<byte> key);

    public abstract bool ContainsKey(ReadOnlySpan<byte> key);

    /// <summary>
    /// In write transactions of <see cref="LoadBatchRecords"/> records, as the adapter's load (RecordSet.Load through
    /// PutMany) commits them: the batch size shapes LMDB's free-page list, which every later commit writes back, so a
    /// load committed per record would leave a different file and make later Puts cheaper than the adapter's.
    /// </summary>
    public void Load(IEnumerable<KeyValuePair<byte[], byte[]>> records)
    {
        foreach (KeyValuePair<byte[], byte[]>[] batch in records.Chunk(LoadBatchRecords))
        {
            using LightningTransaction txn = Env.BeginTransaction();
            foreach (KeyValuePair<byte[], byte[]> record in batch)
            {
                txn.Put(Db, record.Key, record.Value).ThrowOnError();
            }

            txn.Commit().ThrowOnError();
        }
    }

    /// <summary>Ends the transactions the subclass keeps, then closes the database and the environment.</summary>
    public virtual void Dispose()
    {
        Db.Dispose();
        Env.Dispose();
    }
}
