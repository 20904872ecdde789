using System.Buffers;

namespace KvBench.Stores.Sqlite;

/// <summary>
/// One SQLite connection's way of doing each store operation. A strategy decides which connection a call gets and who
/// else may use it meanwhile; the operations themselves are the same SQL whatever the strategy.
/// </summary>
internal abstract class SqliteOperations : IDisposable
{
    public abstract void Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Writes every item in one <c>BEGIN IMMEDIATE</c> transaction: all or none.</summary>
    public abstract void UpsertAll(IReadOnlyList<KeyValuePair<byte[], byte[]>> items);

    public abstract bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    public abstract byte[]? Get(ReadOnlySpan<byte> key);

    public abstract bool ContainsKey(ReadOnlySpan<byte> key);

    public abstract bool Delete(ReadOnlySpan<byte> key);

    /// <summary>Reads one ordered page of keys in [<paramref name="lower"/>, <paramref name="upper"/>); a full page may have more after it.</summary>
    public abstract bool ReadPage(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page);

    public abstract void Dispose();
}
