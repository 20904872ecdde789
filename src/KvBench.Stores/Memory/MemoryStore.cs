using System.Buffers;

using KvBench.Core;

namespace KvBench.Stores.Memory;

/// <summary>
/// The floor: a hash table in this process's memory, no I/O. Not a candidate; it shows the fastest any store could
/// answer through this contract. Lookups take spans without copying (an alternate lookup on the key comparer).
/// </summary>
internal sealed class MemoryStore : StoreAdapter
{
    private static readonly IComparer<KeyValuePair<byte[], byte[]>> s_keyOrder =
        Comparer<KeyValuePair<byte[], byte[]>>.Create(static (x, y) => ByteKeys.Comparer.Compare(x.Key, y.Key));

    // A Dictionary is not safe for a write beside any other call, so every call takes this lock: it is the
    // dictionary's thread safety, not the store's lifetime, which StoreAdapter's gate alone owns.
    private readonly Lock _entriesLock = new();
    private readonly Dictionary<byte[], byte[]> _entries = new(ByteArrayEqualityComparer.Instance);
    private readonly Dictionary<byte[], byte[]>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    public MemoryStore(StoreRow row, StoreOptions options)
        : base(row, options) => _lookup = _entries.GetAlternateLookup<ReadOnlySpan<byte>>();

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        lock (_entriesLock)
        {
            // Overwriting with a value of the same length reuses the array: values handed out are always copies.
            if (_lookup.TryGetValue(key, out byte[]? existing) && existing.Length == value.Length)
            {
                value.CopyTo(existing);
            }
            else
            {
                _lookup[key] = value.ToArray();
            }
        }
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        lock (_entriesLock)
        {
            if (!_lookup.TryGetValue(key, out byte[]? value))
            {
                return false;
            }

            CopyTo(value, destination);
            return true;
        }
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key)
    {
        lock (_entriesLock)
        {
            return _lookup.TryGetValue(key, out byte[]? value) ? value.AsSpan().ToArray() : null;
        }
    }

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key)
    {
        lock (_entriesLock)
        {
            return _lookup.ContainsKey(key);
        }
    }

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        lock (_entriesLock)
        {
            return _lookup.Remove(key);
        }
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Select(key => key.AsSpan().StartsWith(prefix.Span), int.MaxValue);

    /// <remarks>A hash table has no order: every key is compared with the start, and only the smallest k of n kept are put in order and copied, O(n + k log n).</remarks>
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Select(key => key.AsSpan().SequenceCompareTo(startKey.Span) >= 0, limit);

    /// <summary>Copies of up to <paramref name="limit"/> entries whose keys <paramref name="include"/> accepts, in key order.</summary>
    private List<KeyValuePair<byte[], byte[]>> Select(Func<byte[], bool> include, int limit)
    {
        lock (_entriesLock)
        {
            return
            [
                .. Scans.Ascending(_entries.Where(entry => include(entry.Key)), s_keyOrder)
                    .Take(limit)
                    .Select(entry => new KeyValuePair<byte[], byte[]>(entry.Key.AsSpan().ToArray(), entry.Value.AsSpan().ToArray())),
            ];
        }
    }

    protected override void PutManyCore(IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        lock (_entriesLock)
        {
            foreach (KeyValuePair<byte[], byte[]> item in items)
            {
                PutCore(item.Key, item.Value);
            }
        }
    }

    protected override void FlushCore()
    {
    }

    /// <remarks>No lock: StoreAdapter calls this only once no call is in flight and none can start.</remarks>
    protected override void DisposeCore() => _entries.Clear();
}
