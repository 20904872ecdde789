using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>The cells of the capability and durability tables, each from one measurement: what <c>kvbench probe</c> prints too.</summary>
public static class CapabilityCells
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>"511 B", "1,024 B", "16 MiB", "4.5 GiB": whole mebibytes as such (gibibytes from 1 GiB), anything else in bytes.</summary>
    public static string Bytes(long bytes) => bytes switch
    {
        >= 1L << 30 when bytes % (1024 * 1024) == 0 => string.Create(s_numbers, $"{bytes / (double)(1L << 30):0.##} GiB"),
        >= 1024 * 1024 when bytes % (1024 * 1024) == 0 => string.Create(s_numbers, $"{bytes / (1024 * 1024):N0} MiB"),
        _ => string.Create(s_numbers, $"{bytes:N0} B"),
    };

    /// <summary>The "Arbitrary Sized Keys" or "Arbitrary Sized Values" cell for <paramref name="size"/>.</summary>
    public static string Size(SizeMeasurement size) =>
        size.ReachedSearchLimit ? $"Yes (≥ {Bytes(size.SearchLimitBytes)} tested)" : $"No (max {Bytes(size.LargestAcceptedBytes)})";

    /// <summary>The "Arbitrary Database Size" cell for <paramref name="growth"/>.</summary>
    /// <remarks>Only a store opened at the probe's start size is said to have had one; the others started empty.</remarks>
    public static string Growth(GrowthMeasurement growth)
    {
        ArgumentNullException.ThrowIfNull(growth);
        string start = growth.OpenedAtInitialSize ? $"a {Bytes(growth.InitialBytes)} start" : "empty";
        return growth.Grew
            ? $"Yes ({Bytes(growth.WrittenBytes)} written {(growth.OpenedAtInitialSize ? "after" : "from")} {start}, " +
                $"no reopen{(growth.CappedByDiskFreeBytes is { } free
                    ? $"; stopped short of {Bytes(growth.TargetBytes)}: the disk had {Bytes(free)} free"
                    : string.Empty)})"
            : $"No ({growth.Failure} after {Bytes(growth.WrittenBytes)} from {start})";
    }

    /// <summary>The "Multi-Process Access" cell for <paramref name="measurement"/>.</summary>
    public static string MultiProcess(MultiProcessMeasurement? measurement) => measurement switch
    {
        null => "Not measured",
        { Measured: null } => "No consistent level (see Claims checked)",
        _ => Level(measurement.Measured.Value),
    };

    /// <summary>The "Prefixed Key Scans" cell for <paramref name="scan"/>.</summary>
    public static string Scan(ScanMeasurement scan)
    {
        ArgumentNullException.ThrowIfNull(scan);
        string verdict = scan.Verdict switch
        {
            ScanVerdict.OrderedIndex => "Yes, ordered index",
            ScanVerdict.FullScan => "Full scan",
            _ => string.Create(s_numbers, $"Inconclusive after {scan.Rounds} rounds"),
        };
        return string.Create(s_numbers, $"{verdict} ({scan.SizeRatio:0}x records took {scan.TimeRatio:0.0}x as long; growth exponent {scan.Exponent:0.00})");
    }

    /// <summary>The "RW/sec" cell: writes a kill loses are not Buffered writes, so the cell says so rather than compare them as equals.</summary>
    public static string Throughput(StoreMeasurement row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return string.Create(s_numbers, $"{Round(row.Throughput.ReadsPerSecond):N0} reads / {Round(row.Throughput.WritesPerSecond):N0} writes")
            + (row.UnflushedWriteSurvivesKill == false
                || (row.UnflushedWriteSurvivesKill is null && !row.Declared.WritesSurviveKillBeforeFlush)
                    ? " (writes held in memory until Flush)"
                    : string.Empty);
    }

    /// <summary>The durability table's cells of tiers.</summary>
    public static string Tiers(DurabilityTiers tiers) => tiers switch
    {
        DurabilityTiers.None => "None",
        DurabilityTiers.All => "Buffered, Synced",
        _ => tiers.ToString(),
    };

    private static string Level(MultiProcessLevel level) => level switch
    {
        MultiProcessLevel.Shared => "Yes (shared read/write)",
        MultiProcessLevel.OneWriter => "One writer + readers",
        MultiProcessLevel.Exclusive => "No (second open fails fast)",
        MultiProcessLevel.InProcess => "No (in-process memory)",
        _ => level.ToString(),
    };

    /// <summary>Three significant figures: a single-thread loop on a shared machine is not more precise than that.</summary>
    private static double Round(double value)
    {
        if (value <= 0)
        {
            return 0;
        }

        double scale = Math.Pow(10, Math.Floor(Math.Log10(value)) - 2);
        return Math.Round(value / scale) * scale;
    }
}
