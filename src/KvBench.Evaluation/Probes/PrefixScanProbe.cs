using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Probes;

/// <summary>
/// Whether a prefix scan seeks an ordered index or reads everything: one store grown through several sizes, a scan
/// matching five keys timed at each size, and the growth exponent <c>b</c> of <c>time ∝ records^b</c> fitted to the
/// medians. An index answers in O(log n + matches), so <c>b</c> stays near 0; a full scan costs O(n), so <c>b</c> nears 1.
/// </summary>
/// <remarks>
/// <para>
/// Why the thresholds are safe. The sizes span a ratio of <see cref="ProbeSettings.ScanStoreSizes"/>' last over first
/// (256 by default). Over that span a B-tree or LSM seek gains at most a level or two, so an index's time grows by a
/// small factor at most: 2x over 256x is an exponent of log 2 / log 256 = 0.125. A full scan costs a fixed setup plus a
/// per-record step; once the per-record steps outweigh the setup at the small sizes, the exponent is near 1. The
/// classification needs <c>b</c> ≤ <see cref="IndexedBelow"/> for an index and ≥ <see cref="FullScanAbove"/> for a full
/// scan; between them the probe measures again (a fresh store, measured on its own) up to
/// <see cref="ProbeSettings.ScanRounds"/> rounds, then answers <see cref="ScanVerdict.Inconclusive"/>, which is reported
/// as such and never as a contradicted claim.
/// </para>
/// <para>
/// The probe this replaced compared one small and one 40x larger store against √40: noise of a few percent moved a
/// full scan's ratio across that single threshold, so a cell could flip between runs. The fitted exponent leaves a
/// wide margin on either side: indexed rows fit well below <see cref="IndexedBelow"/> (LiteDB's shared mode, whose every
/// call opens the file, comes closest) and full scans well above <see cref="FullScanAbove"/>. The table is in the
/// README (Measured capabilities).
/// </para>
/// </remarks>
public static class PrefixScanProbe
{
    /// <summary>A growth exponent at or below this is an ordered index.</summary>
    public const double IndexedBelow = 0.35;

    /// <summary>A growth exponent at or above this is a full scan.</summary>
    public const double FullScanAbove = 0.65;

    /// <summary>Five keys share this prefix; no record of a <see cref="RecordSet"/> is likely to (one in 2^32 keys).</summary>
    private static readonly byte[] s_markerPrefix = [0xFE, 0xFE, 0xFE, 0xFE];

    private const int Markers = 5;

    /// <summary>Timings per size in one round; their median is the size's time.</summary>
    private const int TimingsPerSize = 7;

    /// <summary>
    /// One timing repeats the scan until this much time has passed, so a scan of microseconds is not lost in the
    /// clock's resolution and jitter.
    /// </summary>
    private static readonly TimeSpan s_minimumTiming = TimeSpan.FromMilliseconds(2);

    /// <summary>How long the scan runs untimed before the first size's timings (see <see cref="WarmUp"/>).</summary>
    private static readonly TimeSpan s_warmUp = TimeSpan.FromMilliseconds(500);

    /// <summary>How long the scan runs untimed before each later size's timings (see <see cref="WarmUp"/>).</summary>
    private static readonly TimeSpan s_settle = TimeSpan.FromMilliseconds(100);

    /// <summary>Measures the store opened by <paramref name="open"/> (Buffered, in a directory under <paramref name="workDirectory"/>).</summary>
    public static ScanMeasurement Measure(Func<StoreOptions, IKeyValueStore> open, string workDirectory, ProbeSettings settings)
    {
        ArgumentNullException.ThrowIfNull(open);
        ArgumentNullException.ThrowIfNull(settings);
        IReadOnlyList<int> sizes = settings.ScanStoreSizes;
        if (sizes.Count < 2 || sizes.Zip(sizes.Skip(1)).Any(pair => pair.Second <= pair.First))
        {
            throw new ArgumentException("The scan probe needs at least two store sizes in ascending order.", nameof(settings));
        }

        ScanMeasurement measurement;
        int round = 0;
        do
        {
            // Each round is a fresh store measured on its own: a round spoiled by something passing (another process,
            // a compaction) is replaced, not averaged in.
            round++;
            string directory = Path.Combine(workDirectory, $"scan-{round}");
            var timings = sizes.Select(_ => new List<double>()).ToArray();
            MeasureRound(open, new StoreOptions { Directory = directory, Durability = Durability.Buffered }, sizes, timings);
            TryDelete(directory);
            measurement = ScanMeasurement.FromTimings([.. sizes.Select((size, i) => new ScanTiming(size, Median(timings[i])))], round);
        }
        while (measurement.Verdict == ScanVerdict.Inconclusive && round < settings.ScanRounds);

        return measurement;
    }

    /// <summary>The least-squares slope of ln(time) over ln(records).</summary>
    public static double GrowthExponent(IReadOnlyList<ScanTiming> timings)
    {
        ArgumentNullException.ThrowIfNull(timings);
        double[] x = [.. timings.Select(timing => Math.Log(timing.Records))];
        double[] y = [.. timings.Select(timing => Math.Log(Math.Max(timing.MedianNanoseconds, 1)))];
        double meanX = x.Average();
        double meanY = y.Average();
        double covariance = x.Zip(y).Sum(point => (point.First - meanX) * (point.Second - meanY));
        double variance = x.Sum(value => (value - meanX) * (value - meanX));
        return covariance / variance;
    }

    /// <summary>The verdict for a growth exponent.</summary>
    public static ScanVerdict Classify(double exponent) => exponent switch
    {
        <= IndexedBelow => ScanVerdict.OrderedIndex,
        >= FullScanAbove => ScanVerdict.FullScan,
        _ => ScanVerdict.Inconclusive,
    };

    private static void MeasureRound(Func<StoreOptions, IKeyValueStore> open, StoreOptions options, IReadOnlyList<int> sizes, List<double>[] timings)
    {
        var records = new RecordSet(valueBytes: 16);
        using IKeyValueStore store = open(options);
        for (byte i = 0; i < Markers; i++)
        {
            store.Put([.. s_markerPrefix, i], [i]);
        }

        long loaded = 0;
        for (int i = 0; i < sizes.Count; i++)
        {
            records.Load(store, loaded, sizes[i] - loaded);
            loaded = sizes[i];
            int found = store.ScanPrefix(s_markerPrefix).Count();
            if (found != Markers)
            {
                throw new InvalidDataException($"{store.Name}: a prefix scan returned {found} records where {Markers} match.");
            }

            WarmUp(store, i == 0 ? s_warmUp : s_settle);

            for (int timing = 0; timing < TimingsPerSize; timing++)
            {
                timings[i].Add(TimeScan(store));
            }
        }
    }

    /// <summary>
    /// Scans, untimed, for <paramref name="duration"/>: <see cref="s_warmUp"/> at the first size, <see cref="s_settle"/>
    /// at each later one. The JIT compiles a method fully only after 30 calls and a quiet 100 ms, so without the first the
    /// small sizes were timed in unoptimised code and the large ones in optimised code, and a process's first probes
    /// fitted exponents in the inconclusive band where later ones fitted near 1. Without the second, a load that grows
    /// the managed heap (the Memory floor's) left the next scans allocating in pages the process had not touched yet:
    /// each scan paid page faults until a garbage collection ran some milliseconds after the load, so the floor's
    /// exponent, timed at once, hung on when the collector ran; settling first takes that out of the fit.
    /// </summary>
    private static void WarmUp(IKeyValueStore store, TimeSpan duration)
    {
        long start = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(start) < duration)
        {
            TimeScan(store);
        }
    }

    /// <summary>Nanoseconds per scan, over as many scans as fit in <see cref="s_minimumTiming"/> (at least one).</summary>
    private static double TimeScan(IKeyValueStore store)
    {
        long start = Stopwatch.GetTimestamp();
        long scans = 0;
        TimeSpan elapsed;
        do
        {
            foreach (KeyValuePair<byte[], byte[]> entry in store.ScanPrefix(s_markerPrefix))
            {
                GC.KeepAlive(entry.Value);
            }

            scans++;
            elapsed = Stopwatch.GetElapsedTime(start);
        }
        while (elapsed < s_minimumTiming);

        return elapsed.TotalNanoseconds / scans;
    }

    private static double Median(List<double> values)
    {
        double[] sorted = [.. values.Order()];
        int middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static void TryDelete(string directory)
    {
        try
        {
            Directory.Delete(directory, recursive: true);
        }
        catch (IOException)
        {
            // The probe's caller owns and removes the work directory; a round's leftovers are only disk space until then.
        }
    }
}
