namespace KvBench.Evaluation.Workload;

/// <summary>
/// Records 0 to <see cref="Count"/> - 1 of a <see cref="RecordSet"/>, each with the value version it was last written
/// at, held as arrays so a measured call slices them without allocating. <see cref="Rewrite"/> moves a record to its next
/// version in place, so every measured write changes the bytes its key holds (see <see cref="ValueVersion"/> for why),
/// and <see cref="VerifyLastWrites"/> checks afterwards that every key holds exactly the version written last: a store
/// that skipped a write, or a harness that wrote nothing new, fails it.
/// </summary>
public sealed class VersionedRecords
{
    private readonly byte[][] _keys;
    private readonly byte[][] _values;
    private readonly ulong[] _versions;
    private int _next;

    /// <summary>
    /// The records at version 0, the version
    /// <see cref="RecordSet.Load(Core.IKeyValueStore, long, int, IProgress{long}?, ulong)"/> writes by default.
    /// </summary>
    /// <exception cref="ArgumentException">
    /// The values are shorter than <see cref="ValueVersion.MaxStampBytes"/>, too short for versions that never repeat.
    /// </exception>
    public VersionedRecords(RecordSet records, int count)
    {
        ArgumentNullException.ThrowIfNull(records);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (records.ValueBytes < ValueVersion.MaxStampBytes)
        {
            throw new ArgumentException(
                $"Rewritten values need at least {ValueVersion.MaxStampBytes} bytes to carry a version that never " +
                    $"repeats; these have {records.ValueBytes}.",
                nameof(records));
        }

        Records = records;
        Count = count;
        _keys = new byte[count][];
        _values = new byte[count][];
        _versions = new ulong[count];
        for (int i = 0; i < count; i++)
        {
            _keys[i] = records.Key(i);
            _values[i] = records.Value(i);
        }
    }

    /// <summary>The record set.</summary>
    public RecordSet Records { get; }

    /// <summary>How many records.</summary>
    public int Count { get; }

    /// <summary>The next index, round-robin, so every key is rewritten as often as every other.</summary>
    public int Next()
    {
        int index = _next;
        _next = index + 1 == Count ? 0 : index + 1;
        return index;
    }

    /// <summary>Record <paramref name="index"/>'s key.</summary>
    public byte[] Key(int index) => _keys[index];

    /// <summary>Record <paramref name="index"/>'s value at its current version.</summary>
    public byte[] Value(int index) => _values[index];

    /// <summary>The version record <paramref name="index"/> was last written (or adopted) at.</summary>
    public ulong Version(int index) => _versions[index];

    /// <summary>Moves record <paramref name="index"/> to its next version, in place, and returns the value to write.</summary>
    public byte[] Rewrite(int index)
    {
        ulong version = _versions[index];
        ValueVersion.Change(_values[index], version, version + 1);
        _versions[index] = version + 1;
        return _values[index];
    }

    /// <summary>
    /// Records <paramref name="start"/> to <paramref name="start"/> + <paramref name="count"/> - 1 as the pairs PutMany
    /// takes. The arrays are the records' own, so a <see cref="Rewrite"/> changes what the batch writes.
    /// </summary>
    public KeyValuePair<byte[], byte[]>[] Batch(int start, int count)
    {
        var batch = new KeyValuePair<byte[], byte[]>[count];
        for (int i = 0; i < count; i++)
        {
            int index = (start + i) % Count;
            batch[i] = new(_keys[index], _values[index]);
        }

        return batch;
    }

    /// <summary>
    /// Reads every record through <paramref name="read"/> and takes the version it holds as the record's current one, so
    /// the next <see cref="Rewrite"/> changes its bytes even when an earlier run (another benchmark case on the same
    /// directory) rewrote it. A record that is missing, or holds bytes that are no version of its value, is counted.
    /// </summary>
    public VerificationResult Adopt(Func<byte[], byte[]?> read) => Check(read, (index, actual) =>
    {
        if (Records.VersionOf(index, actual) is not { } version)
        {
            return false;
        }

        actual.AsSpan().CopyTo(_values[index]);
        _versions[index] = version;
        return true;
    });

    /// <summary>Reads every record through <paramref name="read"/> and compares it, byte for byte, with the version written last.</summary>
    public VerificationResult VerifyLastWrites(Func<byte[], byte[]?> read) =>
        Check(read, (index, actual) => actual.AsSpan().SequenceEqual(_values[index]));

    private VerificationResult Check(Func<byte[], byte[]?> read, Func<int, byte[], bool> accepts)
    {
        ArgumentNullException.ThrowIfNull(read);
        long missing = 0;
        long wrong = 0;
        long firstBad = -1;
        for (int i = 0; i < Count; i++)
        {
            byte[]? actual = read(_keys[i]);
            if (actual is not null && accepts(i, actual))
            {
                continue;
            }

            _ = actual is null ? missing++ : wrong++;
            firstBad = firstBad < 0 ? i : firstBad;
        }

        return new VerificationResult(Count, missing, wrong, firstBad);
    }
}
