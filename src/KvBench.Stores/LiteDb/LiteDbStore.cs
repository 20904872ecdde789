using System.Buffers;

using KvBench.Core;

using LiteDB;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// LiteDB 5: one file (<see cref="LiteDbRow.DataFileName"/>, with LiteDB's <c>-log</c> file beside it), one collection
/// of <c>{ _id: key, v: value }</c> documents, both fields BSON binaries. The connection mode makes the row:
/// <see cref="ConnectionType.Shared"/> builds and disposes a whole engine for every operation under a named mutex, so
/// several processes read and write one file; <see cref="ConnectionType.Direct"/> keeps one engine open and is one
/// process at a time, held by <see cref="StoreDirectoryLock"/> because LiteDB's own <c>FileShare.Read</c> is not enforced
/// on Linux.
/// </summary>
/// <remarks>
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

    private readonly LiteDatabase _database;
    private readonly ILiteCollection<BsonDocument> _collection;
    private readonly StoreDirectoryLock? _lock;
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

        // Direct: the directory lock is taken for every access, a reader too, since a direct engine caches pages and
        // would read a writer's file stale or torn. Shared: LiteDB's mutex serialises every operation of every process.
        _lock = connection == ConnectionType.Direct ? StoreDirectoryLock.Acquire(row.Name, StoreDirectory) : null;
        try
        {
            _database = new LiteDatabase(LiteDbRow.ConnectionString(StoreDirectory, connection, readOnly: !readWrite));
            _collection = _database.GetCollection(CollectionName);
        }
        catch (Exception error)
        {
            _lock?.Dispose();
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
        try
        {
            _collection.Upsert(Document(key.ToArray(), value.ToArray()));
            CheckpointIfSynced();
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
        try
        {
            bool deleted = _collection.Delete(new BsonValue(key.ToArray()));
            if (deleted)
            {
                CheckpointIfSynced();
            }

            return deleted;
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
            _collection.Upsert(items.Select(static item => Document(item.Key, item.Value)));
            CheckpointIfSynced();
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
                _database.Checkpoint();
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
            _lock?.Dispose();
        }
    }

    private BsonDocument? Find(ReadOnlySpan<byte> key)
    {
        try
        {
            return _collection.FindById(new BsonValue(key.ToArray()));
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
        if (_checkpointEachWrite)
        {
            _database.Checkpoint();
        }
    }

    /// <summary>
    /// Reads at most <paramref name="maxEntries"/> entries from <paramref name="lower"/> up to <paramref name="upper"/>:
    /// an <c>_id &gt;= lower</c> query, which LiteDB answers by seeking the <c>_id</c> index and walking it in ascending
    /// order. The reader is read to its end or disposed within this call, on this thread: in shared mode it holds the
    /// named mutex, which only the thread that took it may release.
    /// </summary>
    /// <returns>Whether entries remain past the page.</returns>
    private bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        ThrowIfDisposed();
        try
        {
            return ReadPage(Query.GTE(IdField, new BsonValue(lower)), upper, Math.Min(ScanPageEntries, maxEntries), page);
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
