using HdrHistogram;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Memory;

namespace KvBench.Tests.Evaluation.Workload;

/// <summary>
/// The run over time: a run's timeline has a point per interval whose operations add up to the run's, and its interval
/// log is what HdrHistogram's own reader reads back, with the counts and percentiles of the run's histograms.
/// </summary>
public sealed class IntervalLogTests
{
    private static readonly RunSettings s_fourIntervals = new()
    {
        Threads = 2,
        Warmup = TimeSpan.FromMilliseconds(100),
        Duration = TimeSpan.FromMilliseconds(400),
        TimelineInterval = TimeSpan.FromMilliseconds(100),
        KeepIntervalHistograms = true,
    };

    [Fact]
    public void The_timeline_has_a_point_per_interval_and_its_operations_add_up_to_the_run_s()
    {
        WorkloadResult result = RunOnMemory(s_fourIntervals);

        Assert.Equal(4, result.Timeline.Count);
        Assert.Equal([0, 0.1, 0.2, 0.3], result.Timeline.Select(point => Math.Round(point.StartSeconds, 6)));
        Assert.All(result.Timeline, point => Assert.True(point.OperationsPerSecond > 0 && point.P99 > 0, point.ToString()));
        long total = result.Operations.Sum(operation => operation.Latency.Count);
        double fromTimeline = result.Timeline.Sum(point => point.OperationsPerSecond * point.Seconds);
        Assert.Equal(total, fromTimeline, tolerance: total * 1e-6);
    }

    [Fact]
    public void HdrHistogram_s_reader_reads_the_log_back_with_the_run_s_counts_and_percentiles()
    {
        WorkloadResult result = RunOnMemory(s_fourIntervals);
        using var log = new MemoryStream();

        IntervalLog.Write(result, log);
        Assert.StartsWith("#[Histogram log format version", System.Text.Encoding.ASCII.GetString(log.ToArray()), StringComparison.Ordinal);
        log.Position = 0;
        using var reader = new HistogramLogReader(log);
        HistogramBase[] histograms = [.. reader.ReadHistograms()];

        Assert.Equal(result.Timeline.Count * result.Operations.Count, histograms.Length);
        foreach (OperationResult operation in result.Operations)
        {
            HistogramBase[] ofType = [.. histograms.Where(histogram => histogram.Tag == operation.Type.ToString())];
            Assert.Equal(result.Timeline.Count, ofType.Length);
            HistogramBase merged = ofType[0].Copy();
            foreach (HistogramBase histogram in ofType.Skip(1))
            {
                merged.Add(histogram);
            }

            Assert.Equal(operation.Latency.Count, merged.TotalCount);

            // What the log holds is the run's own histograms, bucket for bucket: every percentile reads the same.
            var ours = new LatencyHistogram();
            foreach (IReadOnlyDictionary<OperationType, LatencyHistogram> interval in result.IntervalHistograms!)
            {
                ours.Add(interval[operation.Type]);
            }

            LongHistogram expected = ours.ToHdrHistogram();
            foreach (double percentile in (double[])[50, 90, 99, 99.9, 100])
            {
                Assert.Equal(expected.GetValueAtPercentile(percentile), merged.GetValueAtPercentile(percentile));
            }
        }
    }

    [Fact]
    public void A_run_that_kept_no_interval_histograms_has_no_log_to_write()
    {
        WorkloadResult result = RunOnMemory(s_fourIntervals with { KeepIntervalHistograms = false });

        Assert.Null(result.IntervalHistograms);
        Assert.NotEmpty(result.Timeline);
        InvalidOperationException error = Assert.Throws<InvalidOperationException>(() => IntervalLog.Write(result, Stream.Null));
        Assert.Contains("KeepIntervalHistograms", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_log_s_file_sits_beside_the_results_file_and_names_the_row_workload_and_threads()
    {
        WorkloadResult result = RunOnMemory(s_fourIntervals with { KeepIntervalHistograms = false });

        string path = IntervalLog.PathBeside(Path.Combine("out", "results.json"), result);

        Assert.Equal(Path.GetFullPath(Path.Combine("out", "results.Memory.YCSB-B.1000r.x2.hlog")), path);
    }

    private static WorkloadResult RunOnMemory(RunSettings settings)
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadSpec workload = YcsbWorkloads.B with { RecordCount = 1_000 };
        WorkloadRunner.Load(store, workload);
        return WorkloadRunner.Run(store, workload, settings);
    }
}
