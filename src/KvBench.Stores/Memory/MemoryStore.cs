using System.Buffers;

using KvBench.Core;

namespace KvBench.Stores.Memory;

/// <summary>
/// The floor: a hash table in this process's memory, no I/O, beside its entries in key order for scans. Not a
/// candidate; it shows how fast a store with no I/O answers through this contract, scans included. One lock serializes
/// its calls, where LMDB's readers take none, so with more threads than cores a reading store can pass it. Lookups take
/// spans without copying (an alternate lookup on the key comparer).
/// </summary>
/// <remarks>
/// The ordered entries (<see cref="OrderedEntries"/>) change only when a key is added or removed, or its value changes
/// length, so an overwrite of the same length (the measured Put) pays nothing for them, and a new key pays O(log n), as
/// in any store with an ordered index, which slows a plain load loop but not by an order of magnitude. Without them
/// every scan compared every key, and YCSB-E's scans took far longer than LMDB's; with them the two are alike.
/// </remarks>
internal sealed class MemoryStore : StoreAdapter
{
    // The dictionary and the ordered entries are not safe for a write beside any other call, so every call takes this
    // lock: it is their thread safety, not the store's lifetime, which StoreAdapter's gate alone owns.
    private readonly Lock _entriesLock = new();
    private readonly Dictionary<byte[], byte[]> _entries = new(ByteArrayEqualityComparer.Instance);
    private readonly Dictionary<byte[], byte[]>.AlternateLookup<ReadOnlySpan<byte>> _lookup;

    // The dictionary's own arrays, never handed out.
    private readonly OrderedEntries _ordered = new();

    public MemoryStore(StoreRow row, StoreOptions options)
        : base(row, options) => _lookup = _entries.GetAlternateLookup<ReadOnlySpan<byte>>();

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        lock (_entriesLock)
        {
            // The overwrite of the same length, the measured Put, is written out here: behind a call to a helper it
            // cost the Put clearly more than the ordered entries' own bookkeeping did.
            if (!_lookup.TryGetValue(key, out byte[]? stored))
            {
                AddEntry(key, value);
            }
            else if (stored.Length == value.Length)
            {
                // Values handed out are always copies, so the array is reused; the ordered entries share it.
                value.CopyTo(stored);
            }
            else
            {
                ReplaceValue(key, value);
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
            if (!_lookup.Remove(key, out byte[]? storedKey, out _))
            {
                return false;
            }

            _ordered.Remove(storedKey);
            return true;
        }
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Select(prefix, key => key.AsSpan().StartsWith(prefix.Span), int.MaxValue);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Select(startKey, static _ => true, limit);

    /// <summary>
    /// Copies of up to <paramref name="limit"/> entries in key order from the first key at or after
    /// <paramref name="start"/>, for as long as <paramref name="matches"/> accepts their keys.
    /// </summary>
    private List<KeyValuePair<byte[], byte[]>> Select(ReadOnlyMemory<byte> start, Func<byte[], bool> matches, int limit)
    {
        byte[] startKey = start.ToArray();
        var selected = new List<KeyValuePair<byte[], byte[]>>();
        lock (_entriesLock)
        {
            foreach ((byte[] key, byte[] value) in _ordered.From(startKey))
            {
                if (selected.Count == limit || !matches(key))
                {
                    break;
                }

                selected.Add(new KeyValuePair<byte[], byte[]>(key.AsSpan().ToArray(), value.AsSpan().ToArray()));
            }
        }

        return selected;
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
    protected override void DisposeCore()
    {
        _entries.Clear();
        _ordered.Clear();
    }

    /// <summary>Stores a key that is not stored. Call under the lock.</summary>
    private void AddEntry(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        byte[] storedKey = key.ToArray();
        byte[] storedValue = value.ToArray();
        _entries.Add(storedKey, storedValue);
        _ordered.Add(storedKey, storedValue);
    }

    /// <summary>Gives a stored key a value of another length, a new array in the dictionary and the ordered entries. Call under the lock.</summary>
    private void ReplaceValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        byte[] replacement = value.ToArray();
        _lookup[key] = replacement;
        _ordered.Replace(key.ToArray(), replacement);
    }
}
