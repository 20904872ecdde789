using KvBench.Core;
using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Probes;

/// <summary>The largest key or value that round-tripped, searched up to a limit.</summary>
/// <param name="LargestAcceptedBytes">The longest length that was stored and read back byte-exact; 0 when none was.</param>
/// <param name="SearchLimitBytes">The longest length tried.</param>
public sealed record SizeMeasurement(int LargestAcceptedBytes, int SearchLimitBytes)
{
    /// <summary>Whether the store took the longest length tried, so its real limit is at least that.</summary>
    public bool ReachedSearchLimit => LargestAcceptedBytes >= SearchLimitBytes;

    /// <summary>Whether a declared limit agrees: equal to the measurement, or at least the search limit when that was reached.</summary>
    public bool Agrees(int declaredBytes) => ReachedSearchLimit ? declaredBytes >= SearchLimitBytes : declaredBytes == LargestAcceptedBytes;

    /// <summary>
    /// An error other than a refusal that recurred on every try of a length and so counted as one, or
    /// <see langword="null"/>: a limit it set is the store failing, not its limit, and the disagreement names it.
    /// </summary>
    public string? Error { get; init; }

    /// <summary>The measurement as the disagreement sentence gives it: the largest length, the search limit and any error.</summary>
    public string Describe() =>
        $"{LargestAcceptedBytes:N0} (searched to {SearchLimitBytes:N0}{(Error is null ? "" : $"; an error counted as a refusal at {Error}")})";
}

/// <summary>Whether a new store took many times the probe's start size without being reopened.</summary>
/// <param name="Grew">Every write succeeded and every byte read back.</param>
/// <param name="InitialBytes">The probe's start size: what a store that preallocates was opened at, and the unit of the target.</param>
/// <param name="WrittenBytes">The bytes of values written (or attempted) without reopening.</param>
/// <param name="Failure">What stopped the writes, when something did.</param>
public sealed record GrowthMeasurement(bool Grew, long InitialBytes, long WrittenBytes, string? Failure)
{
    /// <summary>How much the probe meant to write; more than <see cref="WrittenBytes"/> when the disk or a failure stopped it.</summary>
    public long TargetBytes { get; init; }

    /// <summary>The disk's free bytes when they made the probe aim below its target (half of them, less 1 GiB), or <see langword="null"/>.</summary>
    public long? CappedByDiskFreeBytes { get; init; }

    /// <summary>
    /// Whether the store was opened at <see cref="InitialBytes"/> (it preallocates, as LMDB's map does); otherwise it was
    /// opened as it is and grew from empty.
    /// </summary>
    public bool OpenedAtInitialSize { get; init; }
}

/// <summary>What the prefix-scan probe concluded.</summary>
public enum ScanVerdict
{
    /// <summary>The scan time stayed nearly flat as the store grew: an ordered index.</summary>
    OrderedIndex,

    /// <summary>The scan time grew with the store: every record was read.</summary>
    FullScan,

    /// <summary>The growth exponent stayed between the two thresholds after every round: no answer, and no contradiction.</summary>
    Inconclusive,
}

/// <summary>The median time of one prefix scan at one store size.</summary>
/// <param name="Records">Records in the store.</param>
/// <param name="MedianNanoseconds">The median of the timings at that size.</param>
public sealed record ScanTiming(int Records, double MedianNanoseconds);

/// <summary>A prefix scan timed over one store grown through several sizes (see <see cref="PrefixScanProbe"/>).</summary>
/// <param name="Verdict">Ordered index, full scan, or inconclusive.</param>
/// <param name="Exponent">The fitted growth exponent b of time ∝ records^b.</param>
/// <param name="Timings">The median time at each size, smallest first.</param>
/// <param name="Rounds">How many rounds were measured (more than one when a round was inconclusive).</param>
public sealed record ScanMeasurement(ScanVerdict Verdict, double Exponent, IReadOnlyList<ScanTiming> Timings, int Rounds)
{
    /// <summary>Whether the scan used an ordered index; <see langword="null"/> when inconclusive.</summary>
    public bool? Indexed => Verdict switch
    {
        ScanVerdict.OrderedIndex => true,
        ScanVerdict.FullScan => false,
        _ => null,
    };

    /// <summary>Records in the largest store over records in the smallest.</summary>
    public double SizeRatio => (double)Timings[^1].Records / Timings[0].Records;

    /// <summary>Median scan time in the largest store over that in the smallest.</summary>
    public double TimeRatio => Timings[^1].MedianNanoseconds / Math.Max(Timings[0].MedianNanoseconds, 1);

    /// <summary>Fits the exponent to <paramref name="timings"/> and classifies it.</summary>
    public static ScanMeasurement FromTimings(IReadOnlyList<ScanTiming> timings, int rounds)
    {
        double exponent = PrefixScanProbe.GrowthExponent(timings);
        return new ScanMeasurement(PrefixScanProbe.Classify(exponent), exponent, timings, rounds);
    }
}

/// <summary>Single-thread operations per second at Buffered durability, over a fixed duration.</summary>
public sealed record ThroughputMeasurement(double ReadsPerSecond, double WritesPerSecond);

/// <summary>Every capability of one row, measured.</summary>
public sealed record StoreMeasurement
{
    /// <summary>The row name.</summary>
    public required string Name { get; init; }

    /// <summary>What the adapter claims.</summary>
    public required StoreCapabilities Declared { get; init; }

    /// <summary>The largest key that round-tripped.</summary>
    public required SizeMeasurement Key { get; init; }

    /// <summary>The largest value that round-tripped.</summary>
    public required SizeMeasurement Value { get; init; }

    /// <summary>Growth past the initial size.</summary>
    public required GrowthMeasurement Growth { get; init; }

    /// <summary>Prefix scans: index or full scan.</summary>
    public required ScanMeasurement Scan { get; init; }

    /// <summary>Reads and writes per second.</summary>
    public required ThroughputMeasurement Throughput { get; init; }

    /// <summary>The tiers whose flushed writes survived closing and reopening the store.</summary>
    public required DurabilityTiers SurvivesReopen { get; init; }

    /// <summary>Whether an acknowledged, unflushed write survived its process being killed; <see langword="null"/> when not run.</summary>
    public bool? UnflushedWriteSurvivesKill { get; init; }

    /// <summary>The two-process check, or <see langword="null"/> when it was not run.</summary>
    public MultiProcessMeasurement? MultiProcess { get; init; }

    /// <summary>Each claim the measurements contradict, as a sentence; empty when all agree.</summary>
    public IReadOnlyList<string> Disagreements()
    {
        var found = new List<string>();
        if (!Key.Agrees(Declared.MaxKeyBytes))
        {
            found.Add(
                $"{Name} declares keys up to {Declared.MaxKeyBytes:N0} bytes but the largest that round-tripped was {Key.Describe()}.");
        }

        if (!Value.Agrees(Declared.MaxValueBytes))
        {
            found.Add(
                $"{Name} declares values up to {Declared.MaxValueBytes:N0} bytes but the largest that round-tripped was {Value.Describe()}.");
        }

        if (Growth.Grew != Declared.GrowsWithoutRestart)
        {
            found.Add(
                $"{Name} declares GrowsWithoutRestart={Declared.GrowsWithoutRestart} but the growth probe measured " +
                    $"{Growth.Grew} ({Growth.Failure ?? "no failure"}).");
        }

        // An inconclusive scan contradicts nothing: it is reported as inconclusive in the table.
        if (Scan.Indexed is { } indexed && indexed != Declared.OrderedPrefixScan)
        {
            found.Add(
                $"{Name} declares OrderedPrefixScan={Declared.OrderedPrefixScan} but a scan over {Scan.SizeRatio:0}x " +
                    $"the records took {Scan.TimeRatio:0.0}x as long (growth exponent {Scan.Exponent:0.00}).");
        }

        if (SurvivesReopen != Declared.Durability)
        {
            found.Add($"{Name} declares durability tiers {Declared.Durability} but flushed writes survived a reopen at {SurvivesReopen}.");
        }

        if (UnflushedWriteSurvivesKill is { } survived && survived != Declared.WritesSurviveKillBeforeFlush)
        {
            found.Add(
                $"{Name} declares WritesSurviveKillBeforeFlush={Declared.WritesSurviveKillBeforeFlush} but an " +
                    $"acknowledged, unflushed write {(survived ? "survived" : "was lost to")} a kill -9.");
        }

        if (MultiProcess is { MatchesDeclared: false } multiProcess)
        {
            found.Add(
                $"{Name} declares multi-process level {Declared.MultiProcess} but two processes measured " +
                    $"{multiProcess.Measured?.ToString() ?? "no consistent level"}: " +
                    $"{string.Join(" ", multiProcess.Evidence)}");
        }

        return found;
    }
}
