using System.Buffers.Binary;

using KvBench.Core;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// A numbered set of records: record <c>i</c>'s key and value, and their lengths, are computed from (number, i) alone,
/// so a loader and a verifier in another process, or another run, agree on every byte without sharing state. Keys are
/// unique for every index and can be turned back into it (<see cref="TryIndexOf"/>), so a scanned entry can be checked.
/// </summary>
/// <remarks>
/// Key layouts. Random (<see cref="KeyShape.Random"/>): byte 0 is a check byte, bytes 1 to 8 the index through a
/// bijection (big-endian), the rest filler from the key's stream; keys are spread over the key space in no useful order.
/// Prefixed with P prefixes: <see cref="Prefix"/> of group <c>i mod P</c> ("p" and the group in decimal, zero-padded
/// to the width of P - 1, then "/": "p07/" of 64 prefixes), then the index as 8 bytes big-endian, so the keys under one
/// prefix are ordered by index, then filler. Values: a stream of 8-byte words from (number, i), the first carrying the
/// version (see <see cref="ValueVersion"/>).
/// </remarks>
public sealed class RecordSet
{
    /// <summary>The record set KvBench uses when none is given, so every run measures the same bytes.</summary>
    public const ulong DefaultNumber = 20_241_122;

    /// <summary>The shortest random key: a check byte and the 8 bytes that carry the index.</summary>
    public const int MinRandomKeyBytes = 9;

    /// <summary>The golden-ratio step between the states of a value's 8-byte words.</summary>
    private const ulong StreamStep = 0x9E3779B97F4A7C15;

    private const ulong MixMultiplier1 = 0xBF58476D1CE4E5B9;
    private const ulong MixMultiplier2 = 0x94D049BB133111EB;

    /// <summary>Salts that keep a record's key length, value length and bytes independent draws.</summary>
    private const ulong KeyLengthSalt = 0x2545F4914F6CDD1D;
    private const ulong ValueLengthSalt = 0x6A09E667F3BCC909;

    private static readonly ulong s_inverseMix1 = MultiplicativeInverse(MixMultiplier1);
    private static readonly ulong s_inverseMix2 = MultiplicativeInverse(MixMultiplier2);

    private readonly ulong _mixedNumber;
    private readonly int _prefixDigits;

    /// <summary>Creates a record set with one key and one value length.</summary>
    /// <param name="valueBytes">
    /// The length of every value. Values shorter than <see cref="ValueVersion.MaxStampBytes"/> are allowed here (a
    /// probe may want them), but their versions repeat; the distribution constructor refuses them.
    /// </param>
    /// <param name="number">Which records: the same number gives the same bytes on every machine.</param>
    /// <param name="keyBytes">The length of every key, at least 9: 8 bytes carry the index through a bijection, so keys never collide.</param>
    public RecordSet(int valueBytes, ulong number = DefaultNumber, int keyBytes = MinRandomKeyBytes)
        : this(LengthDistribution.Fixed(keyBytes), KeyShape.Random, LengthDistribution.Fixed(valueBytes), number, checkValueStamp: false)
    {
    }

    /// <summary>Creates a record set whose key and value lengths vary from record to record.</summary>
    /// <param name="keyBytes">Each key's length; at least <see cref="MinKeyBytes(KeyShape)"/> for <paramref name="keyShape"/>.</param>
    /// <param name="keyShape">How keys look: random, or under one of a number of prefixes.</param>
    /// <param name="valueBytes">
    /// Each value's length; at least <see cref="ValueVersion.MaxStampBytes"/>, so every version a writer makes changes the
    /// value's bytes and no two versions are the same.
    /// </param>
    /// <param name="number">Which records: the same number gives the same bytes on every machine.</param>
    /// <exception cref="ArgumentException">A key or value length is below the minimum; the message names it.</exception>
    public RecordSet(LengthDistribution keyBytes, KeyShape keyShape, LengthDistribution valueBytes, ulong number = DefaultNumber)
        : this(keyBytes, keyShape, valueBytes, number, checkValueStamp: true)
    {
    }

    private RecordSet(LengthDistribution keyBytes, KeyShape keyShape, LengthDistribution valueBytes, ulong number, bool checkValueStamp)
    {
        ArgumentNullException.ThrowIfNull(keyBytes);
        ArgumentNullException.ThrowIfNull(keyShape);
        ArgumentNullException.ThrowIfNull(valueBytes);
        if (keyShape.Prefixes < 0)
        {
            throw new ArgumentException($"A key shape needs 0 (random) or more prefixes, not {keyShape.Prefixes}.", nameof(keyShape));
        }

        int minKey = MinKeyBytes(keyShape);
        if (keyBytes.Min < minKey)
        {
            throw new ArgumentException(
                keyShape.IsPrefixed
                    ? $"Keys under {keyShape.Prefixes:N0} prefixes need at least {minKey} bytes (a {minKey - 8}-byte " +
                        $"prefix and the 8 bytes that keep each key unique); {keyBytes} asks for {keyBytes.Min}."
                    : $"Random keys need at least {minKey} bytes (a check byte and the 8 bytes that keep each key unique); {keyBytes} asks for {keyBytes.Min}.",
                nameof(keyBytes));
        }

        if (checkValueStamp && valueBytes.Min < ValueVersion.MaxStampBytes)
        {
            throw new ArgumentException(
                $"Values need at least {ValueVersion.MaxStampBytes} bytes to carry a version that changes their " +
                    $"bytes on every write and never repeats; {valueBytes} asks for {valueBytes.Min}.",
                nameof(valueBytes));
        }

        KeyLengths = keyBytes;
        Shape = keyShape;
        ValueLengths = valueBytes;
        Number = number;
        _mixedNumber = Mix(number);
        _prefixDigits = keyShape.IsPrefixed ? PrefixDigits(keyShape.Prefixes) : 0;
    }

    /// <summary>The shortest key <paramref name="keyShape"/> allows: 9 for random keys, the prefix and 8 bytes for prefixed ones.</summary>
    public static int MinKeyBytes(KeyShape keyShape)
    {
        ArgumentNullException.ThrowIfNull(keyShape);
        return keyShape.IsPrefixed ? PrefixDigits(keyShape.Prefixes) + 2 + sizeof(ulong) : MinRandomKeyBytes;
    }

    /// <summary>Each key's length.</summary>
    public LengthDistribution KeyLengths { get; }

    /// <summary>How keys look.</summary>
    public KeyShape Shape { get; }

    /// <summary>Each value's length.</summary>
    public LengthDistribution ValueLengths { get; }

    /// <summary>The length of every key.</summary>
    /// <exception cref="InvalidOperationException">Key lengths vary: use <see cref="KeyLength"/> and <see cref="MaxKeyBytes"/>.</exception>
    public int KeyBytes =>
        KeyLengths.IsFixed
            ? KeyLengths.Min
            : throw new InvalidOperationException($"Key lengths vary ({KeyLengths}): ask KeyLength(index) or MaxKeyBytes.");

    /// <summary>The length of every value.</summary>
    /// <exception cref="InvalidOperationException">Value lengths vary: use <see cref="ValueLength"/> and <see cref="MaxValueBytes"/>.</exception>
    public int ValueBytes =>
        ValueLengths.IsFixed
            ? ValueLengths.Min
            : throw new InvalidOperationException($"Value lengths vary ({ValueLengths}): ask ValueLength(index) or MaxValueBytes.");

    /// <summary>The longest key: a buffer this long holds any record's key.</summary>
    public int MaxKeyBytes => KeyLengths.Max;

    /// <summary>The longest value: a buffer this long holds any record's value.</summary>
    public int MaxValueBytes => ValueLengths.Max;

    /// <summary>Which records these are: the same number gives the same bytes on every machine.</summary>
    public ulong Number { get; }

    /// <summary>Record <paramref name="index"/>'s key length, from (number, index) alone.</summary>
    public int KeyLength(long index) => KeyLengths.IsFixed ? KeyLengths.Min : KeyLengths.LengthOf(Mix(RecordHash(index) ^ KeyLengthSalt));

    /// <summary>Record <paramref name="index"/>'s value length, from (number, index) alone.</summary>
    public int ValueLength(long index) => ValueLengths.IsFixed ? ValueLengths.Min : ValueLengths.LengthOf(Mix(RecordHash(index) ^ ValueLengthSalt));

    /// <summary>
    /// The prefix every key of group <paramref name="group"/> starts with (record <c>i</c> is in group <c>i mod P</c>),
    /// for a prefix scan of one group.
    /// </summary>
    /// <exception cref="InvalidOperationException">The keys are random, with no prefix.</exception>
    public byte[] Prefix(int group)
    {
        if (!Shape.IsPrefixed)
        {
            throw new InvalidOperationException("Random keys have no prefix: make the record set with a prefixed key shape.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(group);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(group, Shape.Prefixes);
        byte[] prefix = new byte[_prefixDigits + 2];
        WritePrefix(group, prefix);
        return prefix;
    }

    /// <summary>Writes record <paramref name="index"/>'s key into <paramref name="destination"/> and returns its length (<see cref="KeyLength"/>).</summary>
    public int WriteKey(long index, Span<byte> destination)
    {
        int length = KeyLength(index);
        Span<byte> key = destination[..length];
        if (Shape.IsPrefixed)
        {
            int prefix = _prefixDigits + 2;
            WritePrefix((int)(index % Shape.Prefixes), key);
            BinaryPrimitives.WriteInt64BigEndian(key[prefix..], index);
            FillStream(Mix(RecordHash(index) ^ KeyLengthSalt ^ ValueLengthSalt), key[(prefix + 8)..]);
            return length;
        }

        // Mixing the number before adding the index keeps each number's keys a bijection of the index while no simple
        // relation (such as index ^ number) makes two numbers share keys.
        ulong mixed = RecordHash(index);
        key[0] = (byte)Mix(mixed);
        BinaryPrimitives.WriteUInt64BigEndian(key[1..], mixed);
        FillStream(Mix(mixed + 1), key[9..]);
        return length;
    }

    /// <summary>
    /// Writes record <paramref name="index"/>'s value into <paramref name="destination"/> and returns its length
    /// (<see cref="ValueLength"/>).
    /// </summary>
    public int WriteValue(long index, Span<byte> destination)
    {
        int length = ValueLength(index);
        FillStream(ValueStreamState(index), destination[..length]);
        return length;
    }

    /// <summary>
    /// Writes version <paramref name="version"/> of record <paramref name="index"/>'s value and returns its length:
    /// version 0 is <see cref="WriteValue(long, Span{byte})"/>'s value, and every other version differs from it and from
    /// each other (see <see cref="ValueVersion"/>), so a write of a new version always changes the bytes the key holds.
    /// </summary>
    public int WriteValue(long index, ulong version, Span<byte> destination)
    {
        int length = WriteValue(index, destination);
        ValueVersion.Change(destination[..length], 0, version);
        return length;
    }

    /// <summary>
    /// Which version of record <paramref name="index"/>'s value <paramref name="value"/> is, or <see langword="null"/>
    /// when it is no version of it (another length, or other bytes past the version stamp).
    /// </summary>
    public ulong? VersionOf(long index, ReadOnlySpan<byte> value)
    {
        if (value.Length != ValueLength(index))
        {
            return null;
        }

        byte[] expected = Value(index);
        int stamp = ValueVersion.StampBytes(expected.Length);
        return value[stamp..].SequenceEqual(expected.AsSpan(stamp)) ? ValueVersion.Between(expected, value) : null;
    }

    /// <summary>Record <paramref name="index"/>'s key as a new array.</summary>
    public byte[] Key(long index)
    {
        byte[] key = new byte[KeyLength(index)];
        WriteKey(index, key);
        return key;
    }

    /// <summary>Record <paramref name="index"/>'s value as a new array.</summary>
    public byte[] Value(long index)
    {
        byte[] value = new byte[ValueLength(index)];
        WriteValue(index, value);
        return value;
    }

    /// <summary>
    /// Records <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> - 1, their values at
    /// <paramref name="version"/>.
    /// </summary>
    public IEnumerable<KeyValuePair<byte[], byte[]>> Records(long start, long count, ulong version = 0)
    {
        for (long i = start; i < start + count; i++)
        {
            byte[] value = new byte[ValueLength(i)];
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

    /// <summary>
    /// Writes records <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> - 1, as
    /// <see cref="Load(IKeyValueStore, long, int, IProgress{long}?, ulong)"/> does.
    /// </summary>
    public void Load(IKeyValueStore store, long start, long count, int batchSize = 1000, IProgress<long>? progress = null, ulong version = 0)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(batchSize);
        byte[] value = new byte[MaxValueBytes];
        for (long first = start; first < start + count; first += batchSize)
        {
            long size = Math.Min(batchSize, start + count - first);
            if (size == 1)
            {
                int length = WriteValue(first, version, value);
                store.Put(Key(first), value.AsSpan(0, length));
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
        byte[] expected = new byte[MaxValueBytes];
        foreach (long index in indexes)
        {
            checkedCount++;
            byte[]? actual = read(Key(index));
            int length = WriteValue(index, versionOf(index), expected);
            bool ok = actual is not null && actual.AsSpan().SequenceEqual(expected.AsSpan(0, length));
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
        if (key.Length < KeyLengths.Min || key.Length > KeyLengths.Max)
        {
            return false;
        }

        long candidate;
        if (Shape.IsPrefixed)
        {
            int prefix = _prefixDigits + 2;
            candidate = BinaryPrimitives.ReadInt64BigEndian(key[prefix..]);
            if (candidate < 0)
            {
                return false;
            }

            Span<byte> expectedPrefix = stackalloc byte[prefix];
            WritePrefix((int)(candidate % Shape.Prefixes), expectedPrefix);
            if (!key[..prefix].SequenceEqual(expectedPrefix))
            {
                return false;
            }
        }
        else
        {
            ulong mixed = BinaryPrimitives.ReadUInt64BigEndian(key[1..]);
            candidate = (long)(Unmix(mixed) - _mixedNumber);
            if (candidate < 0 || key[0] != (byte)Mix(mixed))
            {
                return false;
            }
        }

        if (key.Length != KeyLength(candidate))
        {
            return false;
        }

        byte[]? rented = key.Length > 256 ? System.Buffers.ArrayPool<byte>.Shared.Rent(key.Length) : null;
        Span<byte> expected = rented is null ? stackalloc byte[key.Length] : rented.AsSpan(0, key.Length);
        WriteKey(candidate, expected);
        bool same = key.SequenceEqual(expected);
        if (rented is not null)
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(rented);
        }

        if (!same)
        {
            return false;
        }

        index = candidate;
        return true;
    }

    /// <summary>
    /// Whether <paramref name="value"/> is some version of record <paramref name="index"/>'s value, checked in constant
    /// time for a reader on a measured path: the length (the record's own), the 8 bytes after the version stamp, the last
    /// whole 8 bytes and any shorter tail after them, each computed from (number, index) alone (a value of another record, or
    /// a torn write, fails); the version is read from the stamp. A value shorter than 16 bytes is compared byte for byte,
    /// as <see cref="VersionOf"/> compares every byte.
    /// </summary>
    public bool TryReadVersion(long index, ReadOnlySpan<byte> value, out ulong version)
    {
        version = 0;
        int length = ValueLength(index);
        if (value.Length != length)
        {
            return false;
        }

        if (length < 16)
        {
            // Too short for the word checks: compare every byte.
            ulong? full = VersionOf(index, value);
            version = full ?? 0;
            return full is not null;
        }

        // Word k of the stream is Mix(state + (k + 1) * step); the stamp is word 0. The sums wrap modulo 2^64 by design.
        ulong state = ValueStreamState(index);
        int words = length / 8;
        if (BinaryPrimitives.ReadUInt64LittleEndian(value[8..]) != Mix(unchecked(state + StreamStep + StreamStep))
            || BinaryPrimitives.ReadUInt64LittleEndian(value[((words - 1) * 8)..]) != Mix(unchecked(state + ((ulong)words * StreamStep))))
        {
            return false;
        }

        int tail = length % 8;
        if (tail > 0)
        {
            Span<byte> last = stackalloc byte[8];
            BinaryPrimitives.WriteUInt64LittleEndian(last, Mix(unchecked(state + ((ulong)(words + 1) * StreamStep))));
            if (!value[^tail..].SequenceEqual(last[..tail]))
            {
                return false;
            }
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

    /// <summary>The fewest decimal digits that write every group below <paramref name="prefixes"/>.</summary>
    private static int PrefixDigits(int prefixes) => Math.Max(1, (prefixes - 1).ToString(System.Globalization.CultureInfo.InvariantCulture).Length);

    /// <summary>Writes "p", the group zero-padded to the prefix's digits, and "/".</summary>
    private void WritePrefix(int group, Span<byte> destination)
    {
        destination[0] = (byte)'p';
        for (int i = _prefixDigits; i >= 1; i--)
        {
            destination[i] = (byte)('0' + (group % 10));
            group /= 10;
        }

        destination[_prefixDigits + 1] = (byte)'/';
    }

    /// <summary>A bijection of the index under this number: the random key's body, and the root of every other draw of the record.</summary>
    private ulong RecordHash(long index) => Mix(unchecked((ulong)index + _mixedNumber));

    private ulong ValueStreamState(long index) => Mix(RecordHash(index) ^ 0x5851F42D4C957F2D);

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
