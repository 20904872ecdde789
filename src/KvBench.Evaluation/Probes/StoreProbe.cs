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
    /// <param name="cli">
    /// The CLI to start as other processes for the two-process check and the kill check, or <see langword="null"/> to
    /// leave both out.
    /// </param>
    /// <param name="timeouts">Bounds for those processes.</param>
    public static async Task<StoreMeasurement> MeasureAsync(
        string name, ProbeSettings settings, string workDirectory, KvBenchCli? cli = null,
        MultiProcessTimeouts? timeouts = null)
    {
        StoreRow row = StoreCatalog.Row(name);
        StoreCapabilities declared = row.Declared;
        StoreMeasurement measurement = Measure(name, declared, row.Open, settings, workDirectory, row.WithInitialSize);
        if (cli is null)
        {
            return measurement;
        }

        return measurement with
        {
            MultiProcess = await new MultiProcessProbe(cli, timeouts).MeasureAsync(name, Path.Combine(workDirectory, "multi-process")).ConfigureAwait(false),
            UnflushedWriteSurvivesKill = declared.Durability == DurabilityTiers.None
                ? null
                : await KillProbe.UnflushedWriteSurvivesKillAsync(cli, name, Path.Combine(workDirectory, "kill"), timeouts).ConfigureAwait(false),
        };
    }

    /// <summary>Measures any store opened by <paramref name="open"/> against the <paramref name="declared"/> claims, all but the two-process check.</summary>
    /// <param name="name">The row name the measurement carries.</param>
    /// <param name="declared">What the store claims.</param>
    /// <param name="open">Opens the store with the options a probe gives.</param>
    /// <param name="settings">How hard to push.</param>
    /// <param name="workDirectory">A directory the probes may fill and that the caller deletes.</param>
    /// <param name="withInitialSize">
    /// Options asking the store to start at a size (<see cref="StoreRow.WithInitialSize"/>), for the growth probe;
    /// <see langword="null"/> for a store that grows from nothing.
    /// </param>
    public static StoreMeasurement Measure(
        string name,
        StoreCapabilities declared,
        Func<StoreOptions, IKeyValueStore> open,
        ProbeSettings settings,
        string workDirectory,
        Func<StoreOptions, long, StoreOptions>? withInitialSize = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return new StoreMeasurement
        {
            Name = name,
            Declared = declared,
            Key = CapabilityProbes.LargestKey(open, workDirectory, settings.KeySearchLimitBytes, declared.MaxKeyBytes),
            Value = CapabilityProbes.LargestValue(open, workDirectory, settings.ValueSearchLimitBytes, declared.MaxValueBytes),
            Growth = CapabilityProbes.Growth(open, workDirectory, settings.GrowthInitialBytes, settings.GrowthFactor, withInitialSize),
            Scan = PrefixScanProbe.Measure(open, workDirectory, settings),
            Throughput = CapabilityProbes.Throughput(open, workDirectory, settings.ThroughputRecords, settings.ThroughputDuration),
            SurvivesReopen = CapabilityProbes.SurvivesReopen(open, workDirectory),
        };
    }
}
