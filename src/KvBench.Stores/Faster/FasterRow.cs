using FASTER.core;

using KvBench.Core;
using KvBench.Stores.Baselines;

namespace KvBench.Stores.Faster;

/// <summary>The <c>FASTER</c> row: <see cref="FasterStore"/>, FASTER's FasterKV over byte spans on its managed log device.</summary>
internal sealed class FasterRow() : StoreRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = FasterStore.MaxKeyBytes,
    MaxValueBytes = FasterStore.MaxValueBytes,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Exclusive,
    OrderedPrefixScan = false,
    Durability = DurabilityTiers.Buffered,
    WritesSurviveKillBeforeFlush = false,
})
{
    /// <summary>FASTER's FasterKV over byte spans, durable at checkpoints.</summary>
    internal const string RowName = "FASTER";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new FasterRaw(directory)) { ManyThreads = true }];

    /// <summary>
    /// FASTER walks its log without checks: a damaged record header (a flipped bit in its log, for one) faults inside its
    /// log scan, a SIGSEGV.
    /// </summary>
    internal override bool MayCrashOnDamagedFiles => true;

    private protected override IKeyValueStore OpenAdapter(StoreOptions options) => new FasterStore(this, options);

    private protected override bool HoldsStore(string directory) => FasterStore.HoldsStore(directory);

    private protected override string DescribeEngine() => $"Microsoft.FASTER.Core {PackageVersion.Of("Microsoft.FASTER.Core")} (managed log device)";

    /// <summary>
    /// FASTER's own exceptions and its device's I/O errors; a full disk is caught by <see cref="StoreFailures.Common"/>.
    /// FASTER keeps no checksums: damaged checkpoint or log bytes surface as "Unable to find valid ... token" or as an
    /// index or null-reference fault thrown from inside FASTER.core while it reads them (seen with flipped bytes), which
    /// are named damaged; the same faults from KvBench's own code stay bugs.
    /// </summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        FasterException when error.Message.StartsWith("Unable to find valid", StringComparison.Ordinal) => StoreFailure.Damaged,
        IndexOutOfRangeException or NullReferenceException or InvalidCastException when ThrownInsideFaster(error) => StoreFailure.Damaged,
        FasterException or IOException => StoreFailure.Failed,
        _ => StoreFailure.NotEngine,
    };

    /// <summary>Whether the innermost frame of <paramref name="error"/> outside the base library is FASTER.core's.</summary>
    private static bool ThrownInsideFaster(Exception error) =>
        new System.Diagnostics.StackTrace(error, fNeedFileInfo: false).GetFrames()
            .Select(frame => frame.GetMethod()?.DeclaringType?.Assembly)
            .FirstOrDefault(assembly => assembly is not null && assembly != typeof(object).Assembly) == typeof(FasterKV<,>).Assembly;
}
