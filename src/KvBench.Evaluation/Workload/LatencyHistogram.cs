using HdrHistogram;

namespace KvBench.Evaluation.Workload;

/// <summary>
/// A log-linear latency histogram in nanoseconds: every power of two is split into <see cref="SubBuckets"/> equal
/// buckets, so a recorded value is known to within 1/<see cref="SubBuckets"/> of itself (0.78%), and a percentile is
/// reported at its bucket's middle, within half that (0.39%). Fixed memory (one array of counts, allocated once), and
/// <see cref="Record"/> allocates nothing and takes no lock: one histogram per thread, merged at the end.
/// </summary>
/// <remarks>
/// This is HdrHistogram's layout at two significant digits (128 buckets in each power of two's upper half), which
/// YCSB and most latency tools record with. KvBench keeps its own recorder because the <c>LatencyRecording</c>
/// benchmark measures it cheaper per value than HdrHistogram's <see cref="LongHistogram"/> at that precision, and the
/// recorder runs on every timed operation. Since the layouts match bucket for bucket, <see cref="ToHdrHistogram"/>
/// converts without losing anything, for the interval logs HdrHistogram's tools read. Values below
/// <see cref="SubBuckets"/> ns are exact.
/// </remarks>
public sealed class LatencyHistogram
{
    /// <summary>Buckets per power of two: 2^7, for a relative bucket width of at most 1/128.</summary>
    public const int SubBuckets = 128;

    private const int SubBucketBits = 7;

    /// <summary>Powers of two above the exact range: values up to 2^63 ns fit.</summary>
    private const int Magnitudes = 63 - SubBucketBits + 1;

    private readonly long[] _counts = new long[SubBuckets + (Magnitudes * SubBuckets)];
    private long _sum;

    /// <summary>How many values were recorded.</summary>
    public long Count { get; private set; }

    /// <summary>The smallest value recorded (exact); 0 when empty.</summary>
    public long Min { get; private set; } = long.MaxValue;

    /// <summary>The largest value recorded (exact); 0 when empty.</summary>
    public long Max { get; private set; }

    /// <summary>The mean of the recorded values; 0 when empty.</summary>
    public double Mean => Count == 0 ? 0 : (double)_sum / Count;

    /// <summary>Records one value; a negative one counts as 0.</summary>
    public void Record(long nanoseconds)
    {
        long value = Math.Max(0, nanoseconds);
        _counts[IndexOf(value)]++;
        Count++;
        _sum += value;
        Min = Math.Min(Min, value);
        Max = Math.Max(Max, value);
    }

    /// <summary>Adds every value <paramref name="other"/> recorded.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        for (int i = 0; i < _counts.Length; i++)
        {
            _counts[i] += other._counts[i];
        }

        Count += other.Count;
        _sum += other._sum;
        Min = Math.Min(Min, other.Min);
        Max = Math.Max(Max, other.Max);
    }

    /// <summary>
    /// The value at <paramref name="percentile"/> (0 to 100): the smallest recorded value such that that share of the
    /// values is at or below it, reported at its bucket's middle and kept within [<see cref="Min"/>, <see cref="Max"/>].
    /// </summary>
    public double ValueAt(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        if (Count == 0)
        {
            return 0;
        }

        long rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * Count));
        if (rank >= Count)
        {
            return Max;
        }

        long seen = 0;
        for (int i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                (long lowest, long width) = BucketOf(i);
                return Math.Clamp(lowest + ((width - 1) / 2.0), Min, Max);
            }
        }

        return Max;
    }

    /// <summary>
    /// The same counts in an HdrHistogram of two significant digits, whose buckets are this histogram's: each bucket's
    /// count is recorded at its lowest value, so every percentile HdrHistogram reports falls in the bucket this one
    /// reports it in.
    /// </summary>
    public LongHistogram ToHdrHistogram()
    {
        var hdr = new LongHistogram(HdrHighestTrackable, numberOfSignificantValueDigits: 2);
        for (int i = 0; i < _counts.Length; i++)
        {
            if (_counts[i] > 0)
            {
                hdr.RecordValueWithCount(Math.Min(BucketOf(i).Lowest, HdrHighestTrackable), _counts[i]);
            }
        }

        return hdr;
    }

    /// <summary>
    /// The largest value the converted histogram tracks: a day in nanoseconds, far past any operation's latency; a
    /// longer one is logged at this value (its exact size stays in <see cref="Max"/>).
    /// </summary>
    private const long HdrHighestTrackable = 86_400L * 1_000_000_000;

    /// <summary>p50, p95, p99, p99.9 and max, as the tables print them.</summary>
    public LatencySummary Summarize() => Count == 0
        ? new LatencySummary(0, 0, 0, 0, 0, 0, 0)
        : new LatencySummary(Count, Mean, ValueAt(50), ValueAt(95), ValueAt(99), ValueAt(99.9), Max);

    private static int IndexOf(long value)
    {
        if (value < SubBuckets)
        {
            return (int)value;
        }

        int magnitude = 63 - (int)long.LeadingZeroCount(value) - SubBucketBits;
        int sub = (int)(value >> magnitude) - SubBuckets;
        return SubBuckets + (magnitude * SubBuckets) + sub;
    }

    private static (long Lowest, long Width) BucketOf(int index)
    {
        if (index < SubBuckets)
        {
            return (index, 1);
        }

        int magnitude = (index - SubBuckets) / SubBuckets;
        int sub = (index - SubBuckets) % SubBuckets;
        return ((long)(SubBuckets + sub) << magnitude, 1L << magnitude);
    }
}

/// <summary>A histogram's count and latencies in nanoseconds.</summary>
/// <param name="Count">Operations recorded.</param>
/// <param name="Mean">Mean latency.</param>
/// <param name="P50">Median.</param>
/// <param name="P95">95th percentile.</param>
/// <param name="P99">99th percentile.</param>
/// <param name="P999">99.9th percentile.</param>
/// <param name="Max">Largest, exact.</param>
public sealed record LatencySummary(long Count, double Mean, double P50, double P95, double P99, double P999, double Max);
