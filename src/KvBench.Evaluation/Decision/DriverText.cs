using System.Globalization;

using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Decision;

/// <summary>How a driver's figures and thresholds read in a decision record, in the driver's unit.</summary>
public static class DriverText
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>Whether the driver is a yes-or-no capability (no threshold to print).</summary>
    public static bool IsYesNo(this Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.Quantity == DriverQuantity.Capability && driver.Capability is not (CapabilityCell.KeyBytes or CapabilityCell.ValueBytes);
    }

    /// <summary><paramref name="value"/> in the driver's unit: "31,800 ops/s", "1.2 ms", "511 B", "100%", "yes".</summary>
    public static string Format(this Driver driver, double value)
    {
        ArgumentNullException.ThrowIfNull(driver);
        if (double.IsNaN(value))
        {
            return "-";
        }

        if (driver.IsYesNo())
        {
            return value >= 1 ? "yes" : "no";
        }

        return driver.Quantity switch
        {
            DriverQuantity.Throughput => string.Create(s_numbers, $"{Significant(value):N0} ops/s"),
            DriverQuantity.Latency or DriverQuantity.VisibilityLag or DriverQuantity.CpuPerOperation => Duration(value),
            DriverQuantity.CrashKept or DriverQuantity.PowerLossKept => string.Create(s_numbers, $"{value:0.###%}"),
            DriverQuantity.AllocatedBytesPerOperation or DriverQuantity.DiskBytesPerRecord => string.Create(s_numbers, $"{value:N0} B"),
            _ => CapabilityCells.Bytes((long)value),
        };
    }

    /// <summary>The figure with its interval: "31,800 ops/s (29,100 to 32,300 expected from 3 rounds)".</summary>
    public static string FormatFigure(this Driver driver, Figure figure)
    {
        ArgumentNullException.ThrowIfNull(driver);
        ArgumentNullException.ThrowIfNull(figure);
        if (!figure.IsMeasured)
        {
            return figure.Skipped ? figure.Unmeasured! : $"not measured: {figure.Unmeasured}";
        }

        string interval = figure.Samples > 1 && figure.Low != figure.High
            ? string.Create(s_numbers, $" ({driver.Format(figure.Low)} to {driver.Format(figure.High)} expected from {figure.Samples} rounds)")
            : figure.Samples > 1 ? string.Create(s_numbers, $" (every one of {figure.Samples} rounds)")
            : figure.SpreadUnknown ? " (one round: its spread is unknown)" : string.Empty;
        return driver.Format(figure.Value) + interval + (figure.LimitedBy is null ? string.Empty : " †");
    }

    /// <summary>"≥ 50,000 ops/s", "≤ 2 ms", "yes".</summary>
    public static string Threshold(this Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.IsYesNo() ? "yes" : ProfileDescription.Threshold(driver);
    }

    /// <summary>"must" or "weight 2".</summary>
    public static string Kind(this Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.Must ? "must" : string.Create(s_numbers, $"weight {driver.Weight:0.##}");
    }

    /// <summary>A duration in nanoseconds as "640 ns", "18.3 µs", "1.2 ms", "2.5 s".</summary>
    public static string Duration(double nanoseconds) =>
        nanoseconds >= 1e9 ? string.Create(s_numbers, $"{nanoseconds / 1e9:0.##} s") : WorkloadCells.Latency(nanoseconds);

    /// <summary>Three significant figures: a rate measured to a few percent prints no more digits than it has.</summary>
    private static double Significant(double value)
    {
        if (value <= 0 || !double.IsFinite(value))
        {
            return value;
        }

        double scale = Math.Pow(10, Math.Floor(Math.Log10(value)) - 2);
        return Math.Round(value / scale) * scale;
    }
}
