using System.Buffers;

namespace KvBench.Core;

/// <summary>
/// One embedded key-value store behind the contract every KvBench row honours.
/// Keys and values are arbitrary bytes; an empty value is a value; an empty key is refused.
/// </summary>
/// <remarks>
/// Implementations are safe to call from many threads of one process unless <see cref="Capabilities"/> says otherwise.
/// Every member throws <see cref="ObjectDisposedException"/> after <see cref="IDisposable.Dispose"/>.
/// </remarks>
public interface IKeyValueStore : IDisposable
{
    /// <summary>The row name used in tables, for example <c>Sqlite_WAL</c> or <c>LMDB</c>.</summary>
    string Name { get; }

    /// <summary>What the adapter claims about its store; probes and tests check each claim.</summary>
    StoreCapabilities Capabilities { get; }

    /// <summary>Inserts or overwrites <paramref name="key"/>.</summary>
    /// <exception cref="KeyTooLargeException">The key is longer than <see cref="StoreCapabilities.MaxKeyBytes"/>.</exception>
    /// <exception cref="ValueTooLargeException">The value is longer than <see cref="StoreCapabilities.MaxValueBytes"/>.</exception>
    /// <exception cref="EmptyKeyException">The key is empty.</exception>
    void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Writes the value of <paramref name="key"/> into <paramref name="destination"/> without allocating a result array.</summary>
    /// <returns><see langword="true"/> when the key exists; <paramref name="destination"/> is untouched otherwise.</returns>
    bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    /// <summary>Returns a copy of the value of <paramref name="key"/>, or <see langword="null"/> when it is absent.</summary>
    byte[]? Get(ReadOnlySpan<byte> key);

    /// <summary>Whether <paramref name="key"/> exists. Measured as "HaveKey" in the tables.</summary>
    bool ContainsKey(ReadOnlySpan<byte> key);

    /// <summary>Removes <paramref name="key"/>.</summary>
    /// <returns><see langword="true"/> when something was removed.</returns>
    bool Delete(ReadOnlySpan<byte> key);

    /// <summary>
    /// Every entry whose key starts with <paramref name="prefix"/>, in ascending unsigned byte order of keys.
    /// An empty prefix returns everything. Enumerate the result before disposing the store.
    /// </summary>
    IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefix(ReadOnlyMemory<byte> prefix);

    /// <summary>
    /// Up to <paramref name="limit"/> entries whose keys are at or after <paramref name="startKey"/>, in ascending
    /// unsigned byte order of keys: the range scan of YCSB workload E. An empty start key starts at the first key; a
    /// start key longer than <see cref="StoreCapabilities.MaxKeyBytes"/> is a valid bound. Enumerate the result before
    /// disposing the store.
    /// </summary>
    /// <param name="startKey">The smallest key the scan may return; it need not exist.</param>
    /// <param name="limit">The most entries to return; 0 returns none.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="limit"/> is negative.</exception>
    IEnumerable<KeyValuePair<byte[], byte[]>> ScanFrom(ReadOnlyMemory<byte> startKey, int limit);

    /// <summary>Writes many entries, in one transaction or batch where the store has one.</summary>
    /// <remarks>Every item is validated before the first is written, so a bad item leaves the store unchanged.</remarks>
    void PutMany(IEnumerable<KeyValuePair<byte[], byte[]>> items);

    /// <summary>Makes everything written so far durable to the tier the store was opened with.</summary>
    void Flush();
}
