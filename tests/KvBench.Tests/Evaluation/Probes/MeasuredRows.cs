using System.Collections.Concurrent;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>Each available row probed once per test run, two processes included, shared by the probe and ADR tests.</summary>
public sealed class MeasuredRows : IDisposable
{
    /// <summary>
    /// Small enough for a unit test; the scan store keeps the quick sizes (100 to 25,600), whose 256x span is what the
    /// scan probe needs. Growing four times past the start shows growth without a reopen as well as sixteen times does.
    /// </summary>
    public static readonly ProbeSettings Settings = ProbeSettings.Quick with
    {
        GrowthFactor = 4,
        ValueSearchLimitBytes = 8 * 1024 * 1024,
        ThroughputDuration = TimeSpan.FromMilliseconds(100),
        ThroughputRecords = 500,
    };

    private readonly TempDirectory _directory = new();
    private readonly ConcurrentDictionary<string, Lazy<StoreMeasurement>> _measurements = new();

    public StoreMeasurement Measure(string name) =>
        _measurements.GetOrAdd(name, key =>
            new Lazy<StoreMeasurement>(() =>
                StoreProbe.MeasureAsync(
                    key, Settings, _directory.Combine(key), KvBenchCli.Locate(),
                    AdrGenerator.MultiProcessTimeouts).GetAwaiter().GetResult())).Value;

    public void Dispose() => _directory.Dispose();
}
