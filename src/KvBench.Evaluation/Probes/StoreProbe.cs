using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;

namespace KvBench.Evaluation.Probes;

/// <summary>Runs every capability probe for one row.</summary>
public static class StoreProbe
{
    /// <summary>Measures the catalog row <paramref name="name"/>.</summary>
    /// <param name="name">A name from <see cref="StoreCatalog.AvailableNames"/>.</param>
    /// <param name="settings">How hard to push.</param>
    /// <param name="workDirectory">A directory the probes may fill and that the caller deletes.</param>
    /// <param name="multiProcess">The two-process check, or <see langword="null"/> to leave it out.</param>
    public static async Task<StoreMeasurement> MeasureAsync(string name, ProbeSettings settings, string workDirectory, MultiProcessProbe? multiProcess = null)
    {
        StoreMeasurement measurement = Measure(name, StoreCatalog.DeclaredCapabilities(name), options => StoreCatalog.Open(name, options), settings, workDirectory);
        return multiProcess is null
            ? measurement
            : measurement with { MultiProcess = await multiProcess.MeasureAsync(name, Path.Combine(workDirectory, "multi-process")).ConfigureAwait(false) };
    }

    /// <summary>Measures any store opened by <paramref name="open"/> against the <paramref name="declared"/> claims, all but the two-process check.</summary>
    public static StoreMeasurement Measure(string name, StoreCapabilities declared, Func<StoreOptions, IKeyValueStore> open, ProbeSettings settings, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new StoreMeasurement
        {
            Name = name,
            Declared = declared,
            Key = CapabilityProbes.LargestKey(open, workDirectory, settings.KeySearchLimitBytes),
            Value = CapabilityProbes.LargestValue(open, workDirectory, settings.ValueSearchLimitBytes),
            Growth = CapabilityProbes.Growth(open, workDirectory, settings.GrowthInitialBytes, settings.GrowthFactor),
            Scan = CapabilityProbes.PrefixScan(open, workDirectory, settings.ScanSmallStoreRecords, settings.ScanLargeStoreRecords),
            Throughput = CapabilityProbes.Throughput(open, workDirectory, settings.ThroughputRecords, settings.ThroughputDuration),
            SurvivesReopen = CapabilityProbes.SurvivesReopen(open, workDirectory),
        };
    }
}
