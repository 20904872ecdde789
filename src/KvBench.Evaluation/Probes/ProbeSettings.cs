namespace KvBench.Evaluation.Probes;

/// <summary>How hard the capability probes push each store.</summary>
public sealed record ProbeSettings
{
    /// <summary>The longest key tried: a store that takes it is reported as taking keys of "at least" this size.</summary>
    public int KeySearchLimitBytes { get; init; } = 1024 * 1024;

    /// <summary>The longest value tried (64 MiB by default, 1 GiB with <see cref="Full"/>).</summary>
    public int ValueSearchLimitBytes { get; init; } = 64 * 1024 * 1024;

    /// <summary>
    /// The growth probe's start size: a store that preallocates (LMDB's map) is opened at it
    /// (<see cref="Stores.StoreRow.WithInitialSize"/>), and every store is written <see cref="GrowthFactor"/> times it.
    /// </summary>
    public long GrowthInitialBytes { get; init; } = 1024 * 1024;

    /// <summary>How many times <see cref="GrowthInitialBytes"/> the growth probe writes without reopening.</summary>
    public int GrowthFactor { get; init; } = 16;

    /// <summary>
    /// The sizes, in records, the prefix-scan probe's store is grown through: 125 to 32,000 by default, a ratio of 256,
    /// wide enough that an index's logarithmic growth and a full scan's linear one fit exponents far apart
    /// (see <see cref="PrefixScanProbe"/>). The largest size bounds the probe's time: FileSystem, the slowest loader,
    /// creates a file per record, and a disk whose journal makes each unlink cost a write deletes a directory of files
    /// in time that grows faster than their count, while a larger top size changed no row's verdict.
    /// </summary>
    public IReadOnlyList<int> ScanStoreSizes { get; init; } = [125, 500, 2_000, 8_000, 32_000];

    /// <summary>How many rounds the prefix-scan probe measures before it calls an exponent between the thresholds inconclusive.</summary>
    public int ScanRounds { get; init; } = 3;

    /// <summary>
    /// How long the single-thread read and write loops each run. Default: 1 s, hundreds of thousands of calls on the
    /// fast rows and thousands on the slowest, enough for a rate; longer loops take time the default evaluation's 15
    /// minutes do not have. The thread sweep measures throughput at length.
    /// </summary>
    public TimeSpan ThroughputDuration { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Records preloaded before the read and write loops; writes overwrite them round-robin.</summary>
    public int ThroughputRecords { get; init; } = 10_000;

    /// <summary>
    /// Crash rounds per row and tier for the durability table (a writer killed with SIGKILL, the store reopened): 2 by
    /// default, a screen that the table shows as one; each round starts a writer process, kills it and reopens the
    /// store, and a third round a row does not fit the default evaluation's 15 minutes. <c>--full</c> runs 50, and
    /// <c>KVBENCH_CRASH_ROUNDS</c> overrides it (the crash suite of <c>dotnet test</c> runs the same rounds at length).
    /// </summary>
    public int CrashRounds { get; init; } = 2;

    /// <summary>The settings behind <c>kvbench adr</c> and the benchmark run's ADR file.</summary>
    public static ProbeSettings Default { get; } = new();

    /// <summary>
    /// Values up to 1 GiB, and a store grown from 1 MiB past 4 GiB (4.5 GiB) without reopening, where the disk allows:
    /// the "no 4 GB limits" driver of the decision record KvBench grew from (<c>--full</c>).
    /// </summary>
    public static ProbeSettings Full { get; } = new()
    {
        ValueSearchLimitBytes = 1024 * 1024 * 1024,
        GrowthFactor = 4608,
        CrashRounds = 50,
        ThroughputDuration = TimeSpan.FromSeconds(5),
    };

    /// <summary>Smaller stores and shorter loops, so every row is probed within a few minutes (<c>--quick</c>).</summary>
    public static ProbeSettings Quick { get; } = new()
    {
        ValueSearchLimitBytes = 16 * 1024 * 1024,
        ScanStoreSizes = [100, 400, 1_600, 6_400, 25_600],
        ThroughputDuration = TimeSpan.FromMilliseconds(500),
        ThroughputRecords = 2_000,
        CrashRounds = 2,
    };
}
