using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks;

/// <summary>
/// The keys and values of records 0 to <see cref="Count"/> - 1 of a <see cref="RecordSet"/>, laid out flat so a
/// benchmark call slices them without allocating, and a round-robin cursor over them: Put overwrites existing keys
/// (the dataset keeps its size) and reads always hit.
/// </summary>
internal sealed class PreloadedRecords
{
    /// <summary>How many records are read back after a load: enough to catch a broken load, spread over the whole set.</summary>
    private const int VerifiedSample = 1000;

    private readonly byte[] _keys;
    private readonly byte[] _values;
    private int _next;

    public PreloadedRecords(RecordSet records, int count)
    {
        Records = records;
        Count = count;
        _keys = new byte[count * records.KeyBytes];
        _values = new byte[count * records.ValueBytes];
        for (int i = 0; i < count; i++)
        {
            records.WriteKey(i, Key(i));
            records.WriteValue(i, Value(i));
        }
    }

    public RecordSet Records { get; }

    public int Count { get; }

    /// <summary>The next index, round-robin.</summary>
    public int Next()
    {
        int index = _next;
        _next = index + 1 == Count ? 0 : index + 1;
        return index;
    }

    public Span<byte> Key(int index) => _keys.AsSpan(index * Records.KeyBytes, Records.KeyBytes);

    public Span<byte> Value(int index) => _values.AsSpan(index * Records.ValueBytes, Records.ValueBytes);

    /// <summary>Reads back a sample, spread over every record, through <paramref name="read"/> and compares every byte.</summary>
    public VerificationResult Verify(Func<byte[], byte[]?> read) => Records.Verify(read, Count, VerifiedSample);
}
