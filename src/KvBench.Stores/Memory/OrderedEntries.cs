namespace KvBench.Stores.Memory;

/// <summary>
/// The entries of the floor's dictionary in key order, held as a list of sorted blocks: a tree two levels deep. A seek
/// is two binary searches, and a scan then reads the key and value references of neighbouring entries from one array,
/// so a scan of k entries costs O(log n + k) with no hashing; an insert or removal moves at most one block's
/// references, and a full block splits in two. Not thread-safe: its owner locks.
/// </summary>
/// <remarks>
/// The blocks hold the dictionary's own arrays, so an overwrite that copies into a value's array changes both at once;
/// only a value of another length, a new array, must be replaced here too.
/// Not <see cref="System.Collections.Immutable.ImmutableSortedSet{T}"/> of the keys, tried first: it has no enumerator
/// that starts at a key, so a scan read each key through the indexer, a walk from the root per key, and then its value
/// from the dictionary, and YCSB-E's scans ran several times slower than LMDB's. Not one sorted array: an insert would
/// move half of it, 400 KB at 50,000 entries.
/// </remarks>
internal sealed class OrderedEntries
{
    // Blocks hold 128 to 256 entries once they split: an insert moves at most 4 KB of references, and a million
    // entries take about 4,000 to 8,000 blocks in the top level, which moves only when a block splits or empties.
    private const int BlockCapacity = 256;

    private static readonly IComparer<KeyValuePair<byte[], byte[]>> s_keyOrder =
        Comparer<KeyValuePair<byte[], byte[]>>.Create(static (x, y) => x.Key.AsSpan().SequenceCompareTo(y.Key));

    private readonly List<List<KeyValuePair<byte[], byte[]>>> _blocks = [];

    /// <summary>Adds an entry whose key is not stored.</summary>
    public void Add(byte[] key, byte[] value)
    {
        var entry = new KeyValuePair<byte[], byte[]>(key, value);
        if (_blocks.Count == 0)
        {
            _blocks.Add([entry]);
            return;
        }

        (int blockIndex, int index) = Find(key);
        if (index >= 0)
        {
            throw Disagreement("is already stored");
        }

        List<KeyValuePair<byte[], byte[]>> block = _blocks[blockIndex];
        block.Insert(~index, entry);
        if (block.Count > BlockCapacity)
        {
            int half = block.Count / 2;
            _blocks.Insert(blockIndex + 1, block.GetRange(half, block.Count - half));
            block.RemoveRange(half, block.Count - half);
        }
    }

    /// <summary>Points a stored key at a new value array.</summary>
    public void Replace(byte[] key, byte[] value)
    {
        (int blockIndex, int index) = FindStored(key);
        _blocks[blockIndex][index] = new KeyValuePair<byte[], byte[]>(_blocks[blockIndex][index].Key, value);
    }

    /// <summary>Removes a stored key's entry.</summary>
    public void Remove(byte[] key)
    {
        (int blockIndex, int index) = FindStored(key);
        List<KeyValuePair<byte[], byte[]>> block = _blocks[blockIndex];
        block.RemoveAt(index);
        if (block.Count == 0)
        {
            _blocks.RemoveAt(blockIndex);
        }
    }

    /// <summary>Every entry whose key is at or after <paramref name="start"/>, in order; nothing may change while it is read.</summary>
    public IEnumerable<KeyValuePair<byte[], byte[]>> From(byte[] start)
    {
        if (_blocks.Count == 0)
        {
            yield break;
        }

        (int blockIndex, int index) = Find(start);
        for (index = index < 0 ? ~index : index; blockIndex < _blocks.Count; blockIndex++, index = 0)
        {
            List<KeyValuePair<byte[], byte[]>> block = _blocks[blockIndex];
            for (; index < block.Count; index++)
            {
                yield return block[index];
            }
        }
    }

    /// <summary>Removes every entry.</summary>
    public void Clear() => _blocks.Clear();

    private static InvalidOperationException Disagreement(string what) =>
        new($"The key {what} in the ordered entries: the memory store's dictionary and its order disagree.");

    /// <summary>
    /// The block that holds or would hold <paramref name="key"/> (the last whose first key is at or before it, else the
    /// first), and the key's index in it, or the bitwise complement of where it would go. The set is not empty.
    /// </summary>
    private (int Block, int Index) Find(byte[] key)
    {
        var probe = new KeyValuePair<byte[], byte[]>(key, []);
        int low = 0;
        int high = _blocks.Count - 1;
        while (low < high)
        {
            // The upper middle, so that low moves when the middle block starts at or before the key.
            int middle = low + ((high - low + 1) / 2);
            if (s_keyOrder.Compare(_blocks[middle][0], probe) <= 0)
            {
                low = middle;
            }
            else
            {
                high = middle - 1;
            }
        }

        return (low, _blocks[low].BinarySearch(probe, s_keyOrder));
    }

    private (int Block, int Index) FindStored(byte[] key)
    {
        (int blockIndex, int index) = _blocks.Count == 0 ? (0, -1) : Find(key);
        return index >= 0 ? (blockIndex, index) : throw Disagreement("is not stored");
    }
}
