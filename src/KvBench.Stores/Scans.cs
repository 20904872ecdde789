using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// Reads one page of a scan into <paramref name="page"/>: from the scan's own start when <paramref name="after"/> is
/// <see langword="null"/>, else from the first key after it; at most <paramref name="maxEntries"/> entries.
/// </summary>
/// <returns>Whether entries may remain after the page.</returns>
internal delegate bool ScanPageReader(byte[]? after, int maxEntries, List<KeyValuePair<byte[], byte[]>> page);

/// <summary>
/// Reads into <paramref name="page"/> at most <paramref name="maxEntries"/> entries with <paramref name="lower"/> ≤ key
/// &lt; <paramref name="upper"/> (no upper bound when <see langword="null"/>), in order, from a store that seeks to a key.
/// </summary>
/// <returns>Whether entries may remain after the page.</returns>
internal delegate bool RangePageReader(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page);

/// <summary>The two ways a store walks keys in order: pages read from an ordered index, or a selection from an unordered set.</summary>
internal static class Scans
{
    private static readonly byte[] s_smallestKey = [0];

    /// <summary>
    /// Up to <paramref name="limit"/> entries, one page at a time, each page resuming after the last key of the one
    /// before. A store reads a page inside one short transaction or lock and copies it out, so a caller that is slow
    /// between items, or that abandons the enumeration, holds nothing of the store's.
    /// </summary>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> InPages(int limit, ScanPageReader readPage)
    {
        var page = new List<KeyValuePair<byte[], byte[]>>();
        byte[]? after = null;
        for (int remaining = limit; remaining > 0;)
        {
            page.Clear();
            bool more = readPage(after, remaining, page);
            foreach (KeyValuePair<byte[], byte[]> entry in page)
            {
                yield return entry;
            }

            remaining -= page.Count;
            if (!more || page.Count == 0)
            {
                yield break;
            }

            after = page[^1].Key;
        }
    }

    /// <summary>A prefix scan as pages of key ranges: from the prefix up to <see cref="ByteKeys.PrefixUpperBound"/>.</summary>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> PrefixInRangePages(ReadOnlyMemory<byte> prefix, RangePageReader readPage) =>
        InRangePages(LowerBound(prefix), ByteKeys.PrefixUpperBound(prefix.Span), int.MaxValue, readPage);

    /// <summary>A scan from a start key as pages of key ranges with no upper bound.</summary>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> FromInRangePages(ReadOnlyMemory<byte> startKey, int limit, RangePageReader readPage) =>
        InRangePages(LowerBound(startKey), upper: null, limit, readPage);

    /// <summary>
    /// <paramref name="items"/> in ascending order, lazily: a heap built in linear time, then one removal per item
    /// taken, so taking the first k of n costs O(n + k log n) where sorting all would cost O(n log n).
    /// </summary>
    public static IEnumerable<T> Ascending<T>(IEnumerable<T> items, IComparer<T> comparer)
    {
        var heap = new PriorityQueue<T, T>(items.Select(item => (item, item)), comparer);
        while (heap.TryDequeue(out T? item, out _))
        {
            yield return item;
        }
    }

    /// <summary>
    /// <paramref name="key"/> as an inclusive lower bound for a seek; an empty one becomes [0x00], which is at or before
    /// every stored key because empty keys are refused, and which SQLite's Scalar row can bind as category 0.
    /// </summary>
    private static byte[] LowerBound(ReadOnlyMemory<byte> key) => key.IsEmpty ? s_smallestKey : key.ToArray();

    /// <summary>Each page after the first starts at the smallest key after the last one seen.</summary>
    private static IEnumerable<KeyValuePair<byte[], byte[]>> InRangePages(byte[] lower, byte[]? upper, int limit, RangePageReader readPage) =>
        InPages(limit, (after, maxEntries, page) => readPage(after is null ? lower : Successor(after), upper, maxEntries, page));

    /// <summary>The smallest key after <paramref name="key"/> in byte order: the key followed by 0x00.</summary>
    private static byte[] Successor(byte[] key)
    {
        byte[] next = new byte[key.Length + 1];
        key.CopyTo(next, 0);
        return next;
    }
}
