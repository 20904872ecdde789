using System.Buffers.Binary;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// Versions of a value that differ in their first bytes: every measured write writes a new version, so it changes the
/// bytes its key holds.
/// </summary>
/// <remarks>
/// SQLite (and other engines) compare a new cell with the old one and skip a write that changes nothing: no dirty page,
/// no log record, no device flush. A Put that rewrites a key's own value costs SQLite a fraction of a changed value's
/// write, and at the Synced tier far less again, as it skips the device flush, while LMDB and RocksDB cost the same
/// either way; a benchmark that rewrites the same bytes compares SQLite doing nothing with the others doing a write. A
/// version is XORed into the first <see cref="MaxStampBytes"/> bytes (fewer for a shorter
/// value), little-endian: version 0 leaves the value as it was, two different versions always give different bytes
/// (for a value of at least 8 bytes; a shorter one repeats after 256^length versions), and moving a value from one
/// version to the next costs one 8-byte XOR, the same for every row.
/// </remarks>
public static class ValueVersion
{
    /// <summary>How many leading bytes carry the version.</summary>
    public const int MaxStampBytes = sizeof(ulong);

    /// <summary>How many leading bytes of a value of <paramref name="valueLength"/> carry the version.</summary>
    public static int StampBytes(int valueLength) => Math.Min(valueLength, MaxStampBytes);

    /// <summary>Turns <paramref name="value"/>, which holds version <paramref name="from"/>, into version <paramref name="to"/> in place.</summary>
    public static void Change(Span<byte> value, ulong from, ulong to)
    {
        ulong difference = from ^ to;
        if (value.Length >= MaxStampBytes)
        {
            Span<byte> stamp = value[..MaxStampBytes];
            BinaryPrimitives.WriteUInt64LittleEndian(stamp, BinaryPrimitives.ReadUInt64LittleEndian(stamp) ^ difference);
            return;
        }

        for (int i = 0; i < value.Length; i++)
        {
            value[i] ^= (byte)(difference >> (8 * i));
        }
    }

    /// <summary>The version <paramref name="value"/> holds relative to <paramref name="original"/> (its version 0); both the same length.</summary>
    public static ulong Between(ReadOnlySpan<byte> original, ReadOnlySpan<byte> value)
    {
        ulong version = 0;
        for (int i = 0; i < StampBytes(original.Length); i++)
        {
            version |= (ulong)(byte)(original[i] ^ value[i]) << (8 * i);
        }

        return version;
    }
}
