using BenchmarkDotNet.Attributes;

using HdrHistogram;

using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks;

/// <summary>
/// What recording one latency costs the workload runner's threads: KvBench's <see cref="LatencyHistogram"/> against
/// HdrHistogram's <see cref="LongHistogram"/> at the same precision (two significant digits lay out 128 buckets per
/// power of two, as KvBench's does, so both report a value to within the same 1/128). The values are a fixed, seeded
/// spread of latencies from a few hundred nanoseconds to milliseconds, so neither recorder sees one bucket only.
/// Run it with <c>-- --filter '*LatencyRecording*'</c>.
/// </summary>
[BenchmarkCategory(Categories.Overhead)]
public class LatencyRecording
{
    /// <summary>Values recorded per invocation: enough that the loop, not the call, is measured.</summary>
    private const int Values = 4096;

    /// <summary>An hour in nanoseconds: the longest latency HdrHistogram is set to track, far beyond any operation's.</summary>
    private const long HighestTrackable = 3_600_000_000_000;

    private readonly long[] _values = new long[Values];
    private readonly LatencyHistogram _kvbench = new();
    private readonly LongHistogram _hdr = new(HighestTrackable, numberOfSignificantValueDigits: 2);
    private long _sum;
    private long _max;

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(20_241_122);
        for (int i = 0; i < _values.Length; i++)
        {
            // Log-uniform from 256 ns to about 4 ms: every magnitude a point operation lands in.
            _values[i] = (long)Math.Pow(2, 8 + (random.NextDouble() * 14));
        }
    }

    /// <summary>KvBench's own log-linear histogram.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Values)]
    public void KvBenchHistogram()
    {
        foreach (long value in _values)
        {
            _kvbench.Record(value);
        }
    }

    /// <summary>HdrHistogram's histogram, with the exact largest value and sum KvBench's keeps besides.</summary>
    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrHistogramWithExactMaxAndSum()
    {
        foreach (long value in _values)
        {
            _hdr.RecordValue(value);
            _sum += value;
            _max = Math.Max(_max, value);
        }
    }

    /// <summary>HdrHistogram's single-writer histogram of 64-bit counts.</summary>
    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrHistogramLong()
    {
        foreach (long value in _values)
        {
            _hdr.RecordValue(value);
        }
    }
}
