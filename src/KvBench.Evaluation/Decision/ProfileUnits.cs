using System.Globalization;
using System.Text.RegularExpressions;

namespace KvBench.Evaluation.Decision;

/// <summary>What a threshold with a unit measures; each driver quantity takes one kind.</summary>
internal enum UnitKind
{
    /// <summary>Bytes: B, KB, KiB, MB, MiB, GB, GiB.</summary>
    Size,

    /// <summary>Nanoseconds: ns, us, µs, ms, s.</summary>
    Duration,

    /// <summary>Operations per second: /s, k/s, M/s (also written ops/s).</summary>
    Rate,

    /// <summary>A share in 0 to 1: %.</summary>
    Share,
}

/// <summary>
/// Reads the thresholds and sizes a profile writes with a unit ("2 ms", "40 KiB", "50k/s", "99.9%") into the model's
/// base units, and writes them back for the record.
/// </summary>
internal static partial class ProfileUnits
{
    private static readonly Dictionary<string, (UnitKind Kind, double Factor)> s_units = new(StringComparer.OrdinalIgnoreCase)
    {
        ["B"] = (UnitKind.Size, 1),
        ["KB"] = (UnitKind.Size, 1e3),
        ["KiB"] = (UnitKind.Size, 1 << 10),
        ["MB"] = (UnitKind.Size, 1e6),
        ["MiB"] = (UnitKind.Size, 1 << 20),
        ["GB"] = (UnitKind.Size, 1e9),
        ["GiB"] = (UnitKind.Size, 1 << 30),
        ["ns"] = (UnitKind.Duration, 1),
        ["us"] = (UnitKind.Duration, 1e3),
        ["µs"] = (UnitKind.Duration, 1e3),

        // The Greek small mu, which some keyboards give instead of the micro sign.
        ["\u03bcs"] = (UnitKind.Duration, 1e3),
        ["ms"] = (UnitKind.Duration, 1e6),
        ["s"] = (UnitKind.Duration, 1e9),
        ["/s"] = (UnitKind.Rate, 1),
        ["ops/s"] = (UnitKind.Rate, 1),
        ["k/s"] = (UnitKind.Rate, 1e3),
        ["kops/s"] = (UnitKind.Rate, 1e3),
        ["M/s"] = (UnitKind.Rate, 1e6),
        ["Mops/s"] = (UnitKind.Rate, 1e6),
        ["%"] = (UnitKind.Share, 0.01),
    };

    /// <summary>The units of <paramref name="kind"/>, for messages.</summary>
    public static string UnitsOf(UnitKind kind) => kind switch
    {
        UnitKind.Size => "B, KB, KiB, MB, MiB, GB, GiB",
        UnitKind.Duration => "ns, us, µs, ms, s",
        UnitKind.Rate => "/s, k/s, M/s",
        _ => "%",
    };

    /// <summary>An example of <paramref name="kind"/>, for messages.</summary>
    public static string Example(UnitKind kind) => kind switch
    {
        UnitKind.Size => "\"512 B\"",
        UnitKind.Duration => "\"2 ms\"",
        UnitKind.Rate => "\"50000/s\"",
        _ => "\"99.9%\"",
    };

    /// <summary>"a size", "a duration", "a rate", "a share".</summary>
    public static string Name(UnitKind kind) => kind switch
    {
        UnitKind.Size => "a size",
        UnitKind.Duration => "a duration",
        UnitKind.Rate => "a rate",
        _ => "a share",
    };

    /// <summary>Reads "40 KiB" as (40960, Size); <see langword="null"/> when the text is not a number followed by a known unit.</summary>
    public static (double Value, UnitKind Kind)? Parse(string text)
    {
        Match match = QuantityPattern().Match(text);
        if (!match.Success
            || !double.TryParse(match.Groups["number"].Value, NumberStyles.Float, CultureInfo.InvariantCulture, out double number)
            || !double.IsFinite(number)
            || !s_units.TryGetValue(match.Groups["unit"].Value, out (UnitKind Kind, double Factor) unit))
        {
            return null;
        }

        return (number * unit.Factor, unit.Kind);
    }

    /// <summary>"2 ms", "500 µs", "1.5 s".</summary>
    public static string Duration(double nanoseconds) => nanoseconds switch
    {
        >= 1e9 => Number(nanoseconds / 1e9) + " s",
        >= 1e6 => Number(nanoseconds / 1e6) + " ms",
        >= 1e3 => Number(nanoseconds / 1e3) + " µs",
        _ => Number(nanoseconds) + " ns",
    };

    /// <summary>"50,000 ops/s".</summary>
    public static string Rate(double perSecond) => perSecond.ToString("#,0.##", CultureInfo.InvariantCulture) + " ops/s";

    /// <summary>"99.9%".</summary>
    public static string Share(double share) => (share * 100).ToString("0.###", CultureInfo.InvariantCulture) + "%";

    /// <summary>"512 B", "40 KiB", "1.5 KB".</summary>
    public static string Size(double bytes)
    {
        if (bytes != Math.Floor(bytes) || bytes > long.MaxValue)
        {
            return Number(bytes) + " B";
        }

        long whole = (long)bytes;
        foreach ((long factor, string unit) in new[] { (1_000_000_000L, "GB"), (1_000_000L, "MB"), (1_000L, "KB") })
        {
            // A figure written in decimal units ("1.5 KB") is printed in them; one in binary units keeps those.
            if (whole >= factor && whole % (factor / 100) == 0 && whole % 1024 != 0)
            {
                return (whole / (double)factor).ToString("#,0.##", CultureInfo.InvariantCulture) + " " + unit;
            }
        }

        return Workload.LengthDistribution.Size(whole);
    }

    private static string Number(double value) => value.ToString("#,0.###", CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^\s*(?<number>[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\s*(?<unit>\S+)\s*$")]
    private static partial Regex QuantityPattern();
}
