using System.Buffers;

using KvBench.Core;

using LiteDB;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// LiteDB 5: one file (<see cref="LiteDbRow.DataFileName"/>, with LiteDB's <c>-log</c> file beside it), one collection
/// of <c>{ _id: key, v: value }</c> documents, both fields BSON binaries. The connection mode makes the row:
/// <see cref="ConnectionType.Shared"/> builds and disposes a whole engine for every operation under a named mutex, so
/// several processes read and write one file; <see cref="ConnectionType.Direct"/> keeps one engine open and is one
/// process at a time. LiteDB's own <c>FileShare.Read</c> is not enforced on Linux, so <see cref="StoreDirectoryLock"/>
/// enforces both: a direct store holds the directory alone, a shared one beside other shared ones, and an open in one
/// mode of a directory the other mode holds is refused with <see cref="StoreLockedException"/> naming the holder (the
/// two modes on one file, even writing one after the other, fail each other's writes as damage: "request page must be
/// less or equals lastest page in data file").
/// </summary>
/// <remarks>
/// <para>
/// Every call into LiteDB is made under one lock per store (<see cref="_engineLock"/>). LiteDB 5.0.x's page cache is
/// not safe for concurrent readers: <c>MemoryCache.Extend</c> can recycle a cached page that another thread has looked
/// up but not yet pinned, and that thread then decodes another page's bytes, so reads return wrong values or throw
/// ("pages in memory store must be non-shared", "Page type must be data page"). LiteDB's issue "Concurrent reads can
/// use a page buffer that MemoryCache is recycling" describes the race, and <c>docs/findings/litedb-direct-threads.md</c>
/// reproduces it on LiteDB alone. It needs more idle cached pages than one
/// cache segment, so it shows on stores of more than a few megabytes, and on scans first. The lock trades the direct
/// engine's parallel reads for reads that are right. A shared connection already runs one operation at a time per
/// process, under LiteDB's mutex, so the lock costs it nothing.
/// </para>
/// <para>
/// Keys are binaries, never strings: LiteDB compares binaries byte by byte, unsigned, shorter first on a common prefix
/// (the order of <see cref="ByteKeys.Comparer"/>) and leaves the collation out of it. Strings would go through the
/// database's collation, whose default ignores case, so the keys "B/1" and "b/1" would be one document; no collation
/// is set, since no key is a string.
/// </para>
/// <para>
/// LiteDB's API takes and returns <c>byte[]</c> and <see cref="BsonValue"/>: a Put copies the key and the value into
/// arrays for the document, a read copies the key into an array for the lookup and LiteDB deserialises the whole
/// document (a dictionary, the value as a new array) under a parsed <c>_id = @0</c> query. Get returns that array as it
/// is; TryGet copies it once more, into the caller's buffer. Nothing here can avoid LiteDB's own allocations.
/// </para>
/// </remarks>
internal sealed class LiteDbStore : StoreAdapter
{
    private const string CollectionName = "kv";
    private const string IdField = "_id";
    private const string ValueField = "v";
    private const int ScanPageEntries = 1024;
    private const int ScanPageBytes = 4 * 1024 * 1024;

    private readonly Lock _engineLock = new();
    private readonly LiteDatabase _database;
    private readonly ILiteCollection<BsonDocument> _collection;
    private readonly StoreDirectoryLock _directoryLock;
    private readonly bool _checkpointEachWrite;

    public LiteDbStore(StoreRow row, ConnectionType connection, StoreOptions options)
        : base(row, options)
    {
        bool readWrite = options.Access == StoreAccess.ReadWrite;
        if (readWrite)
        {
            Directory.CreateDirectory(StoreDirectory);
            KeepFreeSpace(
                LiteDbRow.ReservedFreeBytes,
                "LiteDB copies its log (up to 1,000 pages of 8 KiB before an automatic checkpoint) into the data file after the writes were acknowledged");
        }

        // Taken for every access, a reader too: a direct engine caches pages and would read a writer's file stale or
        // torn. Between shared stores LiteDB's mutex serialises every operation of every process.
        _directoryLock = HoldDirectory(row, connection, StoreDirectory);
        try
        {
            _database = new LiteDatabase(LiteDbRow.ConnectionString(StoreDirectory, connection, readOnly: !readWrite));
            _collection = _database.GetCollection(CollectionName);
            if (readWrite && (options.Durability == Durability.Synced || row.Declared.SyncsEveryWrite))
            {
                // A shared connection creates the data file at its first operation and LiteDB never flushes the directory
                // after: created here, the open's directory flush (StoreDirectorySync) makes its name survive a power cut.
                _ = _collection.Count();
            }
        }
        catch (Exception error)
        {
            _directoryLock.Dispose();
            if (LiteDbRow.IsDamage(error))
            {
                throw Damaged(error);
            }

            throw;
        }

        // Synced in direct mode: a checkpoint after each write copies the log into the data file and fsyncs it before
        // the write is acknowledged. A shared connection checkpoints every time it closes its engine, after each operation.
        _checkpointEachWrite = connection == ConnectionType.Direct && options.Durability == Durability.Synced;
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        BsonDocument document = Document(key.ToArray(), value.ToArray());
        try
        {
            using (_engineLock.EnterScope())
            {
                _collection.Upsert(document);
                CheckpointIfSynced();
            }
        }
        catch (Exception error) when (LiteDbRow.IsDamage(error))
        {
            throw Damaged(error);
        }
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => TryGetThroughArray(key, destination);

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) => Find(key)?[ValueField].AsBinary;

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => Find(key) is not null;

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        var id = new BsonValue(key.ToArray());
        try
        {
            using (_engineLock.EnterScope())
            {
                bool deleted = _collection.Delete(id);
                if (deleted)
                {
                    CheckpointIfSynced();
                }

                return deleted;
            }
        }
        catch (Exception error) when (LiteDbRow.IsDamage(error))
        {
            throw Damaged(error);
        }
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadPage);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadPage);

    /// <summary>
    /// One upsert of every document: LiteDB runs it in one transaction of its own (in shared mode, one engine and one
    /// hold of the mutex), so the batch commits whole or not at all.
    /// </summary>
    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        try
        {
            using (_engineLock.EnterScope())
            {
                _collection.Upsert(items.Select(static item => Document(item.Key, item.Value)));
                CheckpointIfSynced();
            }
        }
        catch (Exception error) when (LiteDbRow.IsDamage(error))
        {
            throw Damaged(error);
        }
    }

    /// <summary>
    /// A checkpoint: LiteDB copies its log into the data file and fsyncs it, so after Flush nothing acknowledged is left
    /// for a power cut to take (in shared mode the log is already empty, each operation's close having checkpointed).
    /// A read-only open writes nothing; a shared one reads the file afresh at every operation anyway.
    /// </summary>
    protected override void FlushCore()
    {
        if (Access == StoreAccess.ReadWrite)
        {
            try
            {
                using (_engineLock.EnterScope())
                {
                    _database.Checkpoint();
                }
            }
            catch (Exception error) when (LiteDbRow.IsDamage(error))
            {
                throw Damaged(error);
            }
        }
    }

    protected override void DisposeCore()
    {
        try
        {
            _database.Dispose();
        }
        finally
        {
            _directoryLock.Dispose();
        }
    }

    /// <summary>
    /// Takes the directory lock for <paramref name="connection"/>: alone for a direct engine, beside other shared
    /// connections for a shared one. A refusal by the other mode names it, so a user who points one mode at a store the
    /// other has open learns which one holds it.
    /// </summary>
    private static StoreDirectoryLock HoldDirectory(StoreRow row, ConnectionType connection, string directory)
    {
        try
        {
            return connection == ConnectionType.Direct
                ? StoreDirectoryLock.Acquire(row.Name, directory)
                : StoreDirectoryLock.AcquireShared(row.Name, directory);
        }
        catch (StoreLockedException error)
        {
            // Only an exclusive holder refuses a shared hold; an exclusive hold refused while a shared one is free was
            // refused by shared holders.
            StoreRow holder = connection == ConnectionType.Shared || !StoreDirectoryLock.HasNoExclusiveHolder(directory)
                ? LiteDbRow.Direct
                : LiteDbRow.Shared;
            if (holder == row)
            {
                throw;
            }

            throw new StoreLockedException(row.Name, directory, holder.Name, error.InnerException);
        }
    }

    private BsonDocument? Find(ReadOnlySpan<byte> key)
    {
        var id = new BsonValue(key.ToArray());
        try
        {
            using (_engineLock.EnterScope())
            {
                return _collection.FindById(id);
            }
        }
        catch (Exception error) when (LiteDbRow.IsDamage(error))
        {
            throw Damaged(error);
        }
    }

    private StoreDamagedException Damaged(Exception error) => new(Name, StoreDirectory, error);

    private static BsonDocument Document(byte[] key, byte[] value) => new()
    {
        [IdField] = new BsonValue(key),
        [ValueField] = new BsonValue(value),
    };

    private void CheckpointIfSynced()
    {
        // Called under _engineLock.
        if (_checkpointEachWrite)
        {
            _database.Checkpoint();
        }
    }

    /// <summary>
    /// Reads at most <paramref name="maxEntries"/> entries from <paramref name="lower"/> up to <paramref name="upper"/>:
    /// an <c>_id &gt;= lower</c> query, which LiteDB answers by seeking the <c>_id</c> index and walking it in ascending
    /// order. The reader is read to its end or disposed within this call, on this thread and under
    /// <see cref="_engineLock"/>: in shared mode it holds the named mutex, which only the thread that took it may release.
    /// </summary>
    /// <returns>Whether entries remain past the page.</returns>
    private bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        ThrowIfDisposed();
        try
        {
            BsonExpression from = Query.GTE(IdField, new BsonValue(lower));
            using (_engineLock.EnterScope())
            {
                return ReadPage(from, upper, Math.Min(ScanPageEntries, maxEntries), page);
            }
        }
        catch (Exception error) when (LiteDbRow.IsDamage(error))
        {
            throw Damaged(error);
        }
    }

    private bool ReadPage(BsonExpression from, byte[]? upper, int pageEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int pageBytes = 0;
        foreach (BsonDocument document in _collection.Find(from, limit: pageEntries + 1))
        {
            byte[] key = document[IdField].AsBinary;
            if (upper is not null && key.AsSpan().SequenceCompareTo(upper) >= 0)
            {
                return false;
            }

            if (page.Count == pageEntries || pageBytes >= ScanPageBytes)
            {
                return true;
            }

            byte[] value = document[ValueField].AsBinary;
            page.Add(new(key, value));
            pageBytes += key.Length + value.Length;
        }

        return false;
    }
}
