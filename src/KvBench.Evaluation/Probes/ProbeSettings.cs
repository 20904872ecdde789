namespace KvBench.Evaluation.Probes;

/// <summary>How hard the capability probes push each store.</summary>
public sealed record ProbeSettings
{
    /// <summary>The longest key tried: a store that takes it is reported as taking keys of "at least" this size.</summary>
    public int KeySearchLimitBytes { get; init; } = 1024 * 1024;

    /// <summary>The longest value tried (64 MiB by default, 1 GiB with <see cref="Full"/>).</summary>
    public int ValueSearchLimitBytes { get; init; } = 64 * 1024 * 1024;

    /// <summary>The initial size a store is opened with for the growth probe (honoured by stores that preallocate).</summary>
    public long GrowthInitialBytes { get; init; } = 1024 * 1024;

    /// <summary>How many times its initial size the growth probe writes without reopening.</summary>
    public int GrowthFactor { get; init; } = 16;

    /// <summary>Records in the small store of the prefix-scan probe.</summary>
    public int ScanSmallStoreRecords { get; init; } = 500;

    /// <summary>Records in the large store of the prefix-scan probe: 40 times the small one by default.</summary>
    public int ScanLargeStoreRecords { get; init; } = 20_000;

    /// <summary>How long the single-thread read and write loops each run.</summary>
    public TimeSpan ThroughputDuration { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Records preloaded before the read and write loops; writes overwrite them round-robin.</summary>
    public int ThroughputRecords { get; init; } = 10_000;

    /// <summary>The settings behind <c>kvbench adr</c> and the benchmark run's ADR file.</summary>
    public static ProbeSettings Default { get; } = new();

    /// <summary>Values up to 1 GiB (<c>--full</c>).</summary>
    public static ProbeSettings Full { get; } = new() { ValueSearchLimitBytes = 1024 * 1024 * 1024, ThroughputDuration = TimeSpan.FromSeconds(5) };

    /// <summary>Smaller stores and shorter loops, so every row is probed within a few minutes (<c>--quick</c>).</summary>
    public static ProbeSettings Quick { get; } = new()
    {
        ValueSearchLimitBytes = 16 * 1024 * 1024,
        ScanSmallStoreRecords = 200,
        ScanLargeStoreRecords = 8_000,
        ThroughputDuration = TimeSpan.FromMilliseconds(500),
        ThroughputRecords = 2_000,
    };
}
