namespace KvBench.Evaluation.Workload;

/// <summary>What one operation of a workload does.</summary>
public enum OperationType
{
    /// <summary>Get one record and check its bytes.</summary>
    Read,

    /// <summary>Put the next version of an existing record.</summary>
    Update,

    /// <summary>Put a record that did not exist yet.</summary>
    Insert,

    /// <summary>Read a record, then Put its next version: one operation, timed as one (YCSB's READ-MODIFY-WRITE).</summary>
    ReadModifyWrite,

    /// <summary>Read up to <see cref="WorkloadSpec.MaxScanLength"/> records in key order from a chosen record's key.</summary>
    Scan,

    /// <summary>Delete a record (a later write of it puts it back).</summary>
    Delete,

    /// <summary>Ask whether a record exists, without reading its value.</summary>
    HasKey,
}

/// <summary>The proportions of each operation; they need not add up to 1 (each is divided by their sum).</summary>
/// <param name="Read">Reads.</param>
/// <param name="Update">Updates.</param>
/// <param name="Insert">Inserts.</param>
/// <param name="ReadModifyWrite">Read-modify-writes.</param>
/// <param name="Scan">Scans.</param>
/// <param name="Delete">Deletes.</param>
/// <param name="HasKey">Existence checks.</param>
public sealed record OperationMix(
    double Read = 0, double Update = 0, double Insert = 0, double ReadModifyWrite = 0, double Scan = 0,
    double Delete = 0, double HasKey = 0)
{
    /// <summary>Only reads.</summary>
    public static OperationMix ReadOnly { get; } = new(Read: 1);

    /// <summary>Only updates.</summary>
    public static OperationMix WriteOnly { get; } = new(Update: 1);

    /// <summary>Half reads, half updates.</summary>
    public static OperationMix HalfReads { get; } = new(Read: 0.5, Update: 0.5);

    /// <summary>The proportion of <paramref name="type"/>, as given.</summary>
    public double Of(OperationType type) => type switch
    {
        OperationType.Read => Read,
        OperationType.Update => Update,
        OperationType.Insert => Insert,
        OperationType.ReadModifyWrite => ReadModifyWrite,
        OperationType.Scan => Scan,
        OperationType.Delete => Delete,
        OperationType.HasKey => HasKey,
        _ => 0,
    };

    /// <summary>"50% read, 50% update", for tables.</summary>
    public override string ToString()
    {
        double total = Enum.GetValues<OperationType>().Sum(Of);
        return string.Join(
            ", ",
            Enum
                .GetValues<OperationType>()
                .Where(type => Of(type) > 0)
                .Select(type => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{Of(type) / total:0.#%} {type}")));
    }
}

/// <summary>A workload: which operations, on which records, of what size.</summary>
public sealed record WorkloadSpec
{
    /// <summary>The name tables print, for example "YCSB-A".</summary>
    public required string Name { get; init; }

    /// <summary>The operations.</summary>
    public required OperationMix Mix { get; init; }

    /// <summary>How records are picked.</summary>
    public KeyDistribution Distribution { get; init; } = KeyDistribution.Zipfian;

    /// <summary>Records loaded before the run (YCSB's recordcount).</summary>
    public long RecordCount { get; init; } = 100_000;

    /// <summary>The value length of every suite: the point-operation benchmarks' smaller size.</summary>
    public const int DefaultValueBytes = 128;

    /// <summary>The key length of every suite: today's keys, a check byte and the 8 bytes that carry the index.</summary>
    public const int DefaultKeyBytes = RecordSet.MinRandomKeyBytes;

    /// <summary>Each key's length. Default: <see cref="DefaultKeyBytes"/> bytes.</summary>
    public LengthDistribution KeyBytes { get; init; } = LengthDistribution.Fixed(DefaultKeyBytes);

    /// <summary>How keys look. Default: random.</summary>
    public KeyShape KeyShape { get; init; } = KeyShape.Random;

    /// <summary>Each value's length. Default: <see cref="DefaultValueBytes"/> bytes.</summary>
    public LengthDistribution ValueLength { get; init; } = LengthDistribution.Fixed(DefaultValueBytes);

    /// <summary>
    /// The length of every value: reads <see cref="ValueLength"/> when it is one length, and sets it to one length. A
    /// shorthand for callers that think in one size; <see cref="ValueLength"/> is the one source of truth.
    /// </summary>
    /// <exception cref="InvalidOperationException">Read while value lengths vary.</exception>
    [System.Text.Json.Serialization.JsonIgnore]
    public int ValueBytes
    {
        get => ValueLength.IsFixed ? ValueLength.Min : throw new InvalidOperationException($"{Name}'s value lengths vary ({ValueLength}): read ValueLength.");
        init => ValueLength = LengthDistribution.Fixed(value);
    }

    /// <summary>
    /// The zipfian constant of <see cref="KeyDistribution.Zipfian"/> and <see cref="KeyDistribution.Latest"/>, above 0
    /// and below 1. Default: YCSB's 0.99.
    /// </summary>
    public double ZipfianConstant { get; init; } = ZipfianGenerator.DefaultTheta;

    /// <summary>The longest scan; each scan's length is uniform in 1..this (YCSB's maxscanlength and scanlengthdistribution=uniform).</summary>
    public int MaxScanLength { get; init; } = 100;

    /// <summary>The same workload at another record count.</summary>
    public WorkloadSpec WithRecords(long records) => this with { RecordCount = records };

    /// <summary>The records this workload loads and touches: its key lengths and shape and its value lengths, of the default record set.</summary>
    /// <exception cref="ArgumentException">A key or value length is below what the record set needs; the message names the minimum.</exception>
    public RecordSet Records() => new(KeyBytes, KeyShape, ValueLength);
}
