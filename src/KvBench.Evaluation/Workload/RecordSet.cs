using System.Buffers.Binary;

using KvBench.Core;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// A fixed-seed set of records: record <c>i</c>'s key and value are computed from (seed, i) alone, so a loader and a
/// verifier in another process, or another run, agree on every byte without sharing state.
/// Keys are <see cref="KeyBytes"/> long, unique for every index, and spread over the key space in no useful order.
/// </summary>
public sealed class RecordSet
{
    /// <summary>The seed KvBench uses when none is given, so every run measures the same bytes.</summary>
    public const ulong DefaultSeed = 20_241_122;

    /// <summary>The golden-ratio step between the states of a value's 8-byte words.</summary>
    private const ulong StreamStep = 0x9E3779B97F4A7C15;

    private const ulong MixMultiplier1 = 0xBF58476D1CE4E5B9;
    private const ulong MixMultiplier2 = 0x94D049BB133111EB;

    private static readonly ulong s_inverseMix1 = MultiplicativeInverse(MixMultiplier1);
    private static readonly ulong s_inverseMix2 = MultiplicativeInverse(MixMultiplier2);

    /// <summary>Creates a record set.</summary>
    /// <param name="valueBytes">The length of every value.</param>
    /// <param name="seed">Which records: the same seed gives the same bytes on every machine.</param>
    /// <param name="keyBytes">The length of every key, at least 9: 8 bytes carry the index through a bijection, so keys never collide.</param>
    public RecordSet(int valueBytes, ulong seed = DefaultSeed, int keyBytes = 9)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(valueBytes);
        ArgumentOutOfRangeException.ThrowIfLessThan(keyBytes, 9);
        ValueBytes = valueBytes;
        KeyBytes = keyBytes;
        Seed = seed;
    }

    /// <summary>The length of every key.</summary>
    public int KeyBytes { get; }

    /// <summary>The length of every value.</summary>
    public int ValueBytes { get; }

    /// <summary>The seed.</summary>
    public ulong Seed { get; }

    /// <summary>Writes record <paramref name="index"/>'s key into <paramref name="destination"/> (<see cref="KeyBytes"/> long).</summary>
    public void WriteKey(long index, Span<byte> destination)
    {
        // Mixing the seed before adding the index keeps each seed's keys a bijection of the index while no simple
        // relation (such as index ^ seed) makes two seeds share keys.
        ulong mixed = Mix((ulong)index + Mix(Seed));
        destination[0] = (byte)Mix(mixed);
        BinaryPrimitives.WriteUInt64BigEndian(destination[1..], mixed);
        FillStream(Mix(mixed + 1), destination[9..KeyBytes]);
    }

    /// <summary>Writes record <paramref name="index"/>'s value into <paramref name="destination"/> (<see cref="ValueBytes"/> long).</summary>
    public void WriteValue(long index, Span<byte> destination) => FillStream(ValueStreamState(index), destination[..ValueBytes]);

    /// <summary>
    /// Writes version <paramref name="version"/> of record <paramref name="index"/>'s value: version 0 is
    /// <see cref="WriteValue(long, Span{byte})"/>'s value, and every other version differs from it and from each other
    /// (see <see cref="ValueVersion"/>), so a write of a new version always changes the bytes the key holds.
    /// </summary>
    public void WriteValue(long index, ulong version, Span<byte> destination)
    {
        WriteValue(index, destination);
        ValueVersion.Change(destination[..ValueBytes], 0, version);
    }

    /// <summary>
    /// Which version of record <paramref name="index"/>'s value <paramref name="value"/> is, or <see langword="null"/>
    /// when it is no version of it (another length, or other bytes past the version stamp).
    /// </summary>
    public ulong? VersionOf(long index, ReadOnlySpan<byte> value)
    {
        if (value.Length != ValueBytes)
        {
            return null;
        }

        byte[] expected = Value(index);
        int stamp = ValueVersion.StampBytes(ValueBytes);
        return value[stamp..].SequenceEqual(expected.AsSpan(stamp)) ? ValueVersion.Between(expected, value) : null;
    }

    /// <summary>Record <paramref name="index"/>'s key as a new array.</summary>
    public byte[] Key(long index)
    {
        byte[] key = new byte[KeyBytes];
        WriteKey(index, key);
        return key;
    }

    /// <summary>Record <paramref name="index"/>'s value as a new array.</summary>
    public byte[] Value(long index)
    {
        byte[] value = new byte[ValueBytes];
        WriteValue(index, value);
        return value;
    }

    /// <summary>Records <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> - 1, their values at <paramref name="version"/>.</summary>
    public IEnumerable<KeyValuePair<byte[], byte[]>> Records(long start, long count, ulong version = 0)
    {
        for (long i = start; i < start + count; i++)
        {
            byte[] value = new byte[ValueBytes];
            WriteValue(i, version, value);
            yield return new(Key(i), value);
        }
    }

    /// <summary>
    /// Writes records 0 to <paramref name="count"/> - 1 at <paramref name="version"/> in PutMany batches of
    /// <paramref name="batchSize"/> (a batch of 1 is a Put per record), reporting progress after each batch.
    /// </summary>
    public void Load(IKeyValueStore store, long count, int batchSize = 1000, IProgress<long>? progress = null, ulong version = 0) =>
        Load(store, 0, count, batchSize, progress, version);

    /// <summary>Writes records <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> - 1, as <see cref="Load(IKeyValueStore, long, int, IProgress{long}?, ulong)"/> does.</summary>
    public void Load(IKeyValueStore store, long start, long count, int batchSize = 1000, IProgress<long>? progress = null, ulong version = 0)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(batchSize);
        byte[] value = new byte[ValueBytes];
        for (long first = start; first < start + count; first += batchSize)
        {
            long size = Math.Min(batchSize, start + count - first);
            if (size == 1)
            {
                WriteValue(first, version, value);
                store.Put(Key(first), value);
            }
            else
            {
                store.PutMany(Records(first, size, version).ToList());
            }

            progress?.Report(first + size - start);
        }
    }

    /// <summary>
    /// Reads back <paramref name="sampleSize"/> of records 0 to <paramref name="count"/> - 1 (all of them when the sample
    /// is at least the count), spread evenly, and compares every byte with the values at <paramref name="version"/>.
    /// </summary>
    public VerificationResult Verify(IKeyValueStore store, long count, long sampleSize = long.MaxValue, ulong version = 0)
    {
        ArgumentNullException.ThrowIfNull(store);
        return Verify(key => store.Get(key), count, sampleSize, version);
    }

    /// <summary>
    /// <see cref="Verify(IKeyValueStore, long, long, ulong)"/> through <paramref name="read"/>, which returns a key's value or
    /// <see langword="null"/>: for readers that are not an <see cref="IKeyValueStore"/>, such as a raw-driver baseline.
    /// </summary>
    public VerificationResult Verify(Func<byte[], byte[]?> read, long count, long sampleSize = long.MaxValue, ulong version = 0)
    {
        return Verify(read, EvenlySpread(count, Math.Min(count, sampleSize)), _ => version);
    }

    /// <summary><paramref name="sampleSize"/> indexes spread evenly over 0 to <paramref name="count"/> - 1 (every index when they are as many).</summary>
    private static IEnumerable<long> EvenlySpread(long count, long sampleSize)
    {
        for (long n = 0; n < sampleSize; n++)
        {
            yield return sampleSize == count ? n : n * count / sampleSize;
        }
    }

    /// <summary>
    /// Reads back the records at <paramref name="indexes"/> through <paramref name="read"/> and compares every byte with
    /// the value at the version <paramref name="versionOf"/> gives for each: for writers whose records stand at different
    /// versions, such as a workload run's acknowledged updates.
    /// </summary>
    public VerificationResult Verify(Func<byte[], byte[]?> read, IEnumerable<long> indexes, Func<long, ulong> versionOf)
    {
        ArgumentNullException.ThrowIfNull(read);
        ArgumentNullException.ThrowIfNull(indexes);
        ArgumentNullException.ThrowIfNull(versionOf);
        long checkedCount = 0;
        long missing = 0;
        long wrong = 0;
        long firstBad = -1;
        byte[] expected = new byte[ValueBytes];
        foreach (long index in indexes)
        {
            checkedCount++;
            byte[]? actual = read(Key(index));
            WriteValue(index, versionOf(index), expected);
            bool ok = actual is not null && actual.AsSpan().SequenceEqual(expected);
            if (!ok)
            {
                _ = actual is null ? missing++ : wrong++;
                firstBad = firstBad < 0 ? index : firstBad;
            }
        }

        return new VerificationResult(checkedCount, missing, wrong, firstBad);
    }

    /// <summary>
    /// The index of the record whose key is <paramref name="key"/>, found by undoing the key's bijection; false for a key
    /// no record of this set has. Lets a reader check a scanned entry without knowing in advance which record it is.
    /// </summary>
    public bool TryIndexOf(ReadOnlySpan<byte> key, out long index)
    {
        index = -1;
        if (key.Length != KeyBytes)
        {
            return false;
        }

        ulong mixed = BinaryPrimitives.ReadUInt64BigEndian(key[1..]);
        long candidate = (long)(Unmix(mixed) - Mix(Seed));
        if (candidate < 0 || key[0] != (byte)Mix(mixed))
        {
            return false;
        }

        Span<byte> expected = stackalloc byte[KeyBytes];
        WriteKey(candidate, expected);
        if (!key.SequenceEqual(expected))
        {
            return false;
        }

        index = candidate;
        return true;
    }

    /// <summary>
    /// Whether <paramref name="value"/> is some version of record <paramref name="index"/>'s value, checked in constant
    /// time for a reader on a measured path: the length, the 8 bytes after the version stamp and the last 8 bytes, each
    /// computed from (seed, index) alone (a value of another record, or a torn write, fails); the version is read from the
    /// stamp. <see cref="VersionOf"/> compares every byte.
    /// </summary>
    public bool TryReadVersion(long index, ReadOnlySpan<byte> value, out ulong version)
    {
        version = 0;
        if (value.Length != ValueBytes)
        {
            return false;
        }

        ulong state = ValueStreamState(index);
        int words = ValueBytes / 8;
        if (ValueBytes < 24 || ValueBytes % 8 != 0)
        {
            // Too short or ragged for the word checks: compare every byte.
            ulong? full = VersionOf(index, value);
            version = full ?? 0;
            return full is not null;
        }

        // Word k of the stream is Mix(state + (k + 1) * step); the stamp is word 0. The sums wrap modulo 2^64 by design.
        if (BinaryPrimitives.ReadUInt64LittleEndian(value[8..]) != Mix(unchecked(state + StreamStep + StreamStep))
            || BinaryPrimitives.ReadUInt64LittleEndian(value[^8..]) != Mix(unchecked(state + ((ulong)words * StreamStep))))
        {
            return false;
        }

        version = BinaryPrimitives.ReadUInt64LittleEndian(value) ^ Mix(unchecked(state + StreamStep));
        return true;
    }

    /// <summary>The SplitMix64 finaliser: a bijection on 64-bit values that scatters neighbouring inputs.</summary>
    private static ulong Mix(ulong x)
    {
        x = (x ^ (x >> 30)) * MixMultiplier1;
        x = (x ^ (x >> 27)) * MixMultiplier2;
        return x ^ (x >> 31);
    }

    /// <summary><see cref="Mix"/> undone: each xor-shift and each multiplication (by an odd constant) has an inverse.</summary>
    private static ulong Unmix(ulong x)
    {
        x ^= (x >> 31) ^ (x >> 62);
        x *= s_inverseMix2;
        x ^= (x >> 27) ^ (x >> 54);
        x *= s_inverseMix1;
        return x ^ (x >> 30) ^ (x >> 60);
    }

    /// <summary>The inverse of an odd <paramref name="value"/> modulo 2^64, by Newton's iteration (each step doubles the correct low bits).</summary>
    private static ulong MultiplicativeInverse(ulong value)
    {
        ulong inverse = value;
        for (int i = 0; i < 6; i++)
        {
            inverse *= 2 - (value * inverse);
        }

        return inverse;
    }

    private ulong ValueStreamState(long index) => Mix(Mix((ulong)index + Mix(Seed)) ^ 0x5851F42D4C957F2D);

    private static void FillStream(ulong state, Span<byte> destination)
    {
        while (destination.Length >= 8)
        {
            state += StreamStep;
            BinaryPrimitives.WriteUInt64LittleEndian(destination, Mix(state));
            destination = destination[8..];
        }

        if (!destination.IsEmpty)
        {
            state += StreamStep;
            Span<byte> last = stackalloc byte[8];
            BinaryPrimitives.WriteUInt64LittleEndian(last, Mix(state));
            last[..destination.Length].CopyTo(destination);
        }
    }
}

/// <summary>What a verification found.</summary>
/// <param name="Checked">How many records were read back.</param>
/// <param name="Missing">How many were absent.</param>
/// <param name="Wrong">How many had other bytes.</param>
/// <param name="FirstBadIndex">The first bad record's index, or -1.</param>
public sealed record VerificationResult(long Checked, long Missing, long Wrong, long FirstBadIndex)
{
    /// <summary>Whether every checked record was present with its exact bytes.</summary>
    public bool Ok => Missing == 0 && Wrong == 0;

    /// <summary>Throws when a record was missing or wrong: a result built on wrong reads is no result.</summary>
    public void ThrowIfFailed(string storeName)
    {
        if (!Ok)
        {
            throw new InvalidDataException($"{storeName}: {Missing} of {Checked} records missing and {Wrong} wrong (first bad index {FirstBadIndex}).");
        }
    }
}
