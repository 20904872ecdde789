using System.Diagnostics;

using BenchmarkDotNet.Attributes;

using KvBench.Evaluation.Workload;

namespace KvBench.Benchmarks;

/// <summary>
/// What the workload runner adds to every operation it times: two <see cref="Stopwatch.GetTimestamp"/> calls and a
/// <see cref="LatencyHistogram.Record"/>, against an empty call. Run it with
/// <c>-- --filter '*TimingOverhead*'</c>; the README states the result beside Memory's Get.
/// </summary>
[BenchmarkCategory(Categories.Overhead)]
public class TimingOverhead
{
    private static readonly double s_nanosecondsPerTick = 1e9 / Stopwatch.Frequency;

    private readonly LatencyHistogram _histogram = new();
    private long _sink;

    /// <summary>The clock read twice, the difference recorded: the runner's cost per operation.</summary>
    [Benchmark]
    public void TimeAndRecord()
    {
        long start = Stopwatch.GetTimestamp();
        long end = Stopwatch.GetTimestamp();
        _histogram.Record((long)((end - start) * s_nanosecondsPerTick));
    }

    /// <summary>The clock read twice, nothing recorded.</summary>
    [Benchmark]
    public long TimeOnly() => Stopwatch.GetTimestamp() - Stopwatch.GetTimestamp();

    /// <summary>Only the recording, of a value that varies like a latency.</summary>
    [Benchmark]
    public void RecordOnly() => _histogram.Record((_sink += 37) & 0xFFFFF);
}
