namespace KvBench.Core;

/// <summary>Key ordering shared by every store: ascending unsigned bytes, shorter first on a tie.</summary>
public static class ByteKeys
{
    /// <summary>Compares keys in ascending unsigned byte order.</summary>
    public static IComparer<byte[]> Comparer { get; } = Comparer<byte[]>.Create(static (x, y) => x.AsSpan().SequenceCompareTo(y));

    /// <summary>
    /// The smallest key greater than every key that starts with <paramref name="prefix"/>: the prefix with its last
    /// byte below 0xFF incremented and the rest dropped. <see langword="null"/> when the prefix is empty or all 0xFF,
    /// which means "no upper bound".
    /// </summary>
    public static byte[]? PrefixUpperBound(ReadOnlySpan<byte> prefix)
    {
        int last = prefix.LastIndexOfAnyExcept((byte)0xFF);
        if (last < 0)
        {
            return null;
        }

        byte[] bound = prefix[..(last + 1)].ToArray();
        bound[last]++;
        return bound;
    }
}
