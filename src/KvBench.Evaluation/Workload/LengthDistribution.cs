using System.Globalization;

namespace KvBench.Evaluation.Workload;

/// <summary>One bucket of a <see cref="LengthDistribution"/>: its share of the records and their length.</summary>
/// <param name="Share">The bucket's weight; the buckets' weights are divided by their sum.</param>
/// <param name="Bytes">The length of every record in the bucket.</param>
public readonly record struct LengthBucket(double Share, int Bytes);

/// <summary>
/// How long each record's key or value is: one length for every record, uniform in a range, or weighted buckets (80% of
/// 200 B and 20% of 40 KiB). A record's length is a function of a hash of (record set number, index) alone, so a loader and a reader
/// in another process agree on it without sharing state.
/// </summary>
[System.Text.Json.Serialization.JsonConverter(typeof(LengthDistributionJsonConverter))]
public sealed class LengthDistribution : IEquatable<LengthDistribution>
{
    private readonly LengthBucket[] _buckets;
    private readonly double[] _cumulative;
    private readonly bool _range;

    private LengthDistribution(LengthBucket[] buckets, bool range)
    {
        _buckets = buckets;
        _range = range;
        double total = buckets.Sum(bucket => bucket.Share);
        double sum = 0;
        _cumulative = [.. buckets.Select(bucket => sum += bucket.Share / total)];
        Min = buckets.Min(bucket => bucket.Bytes);
        Max = buckets.Max(bucket => bucket.Bytes);
        Mean = range ? (Min + Max) / 2.0 : buckets.Sum(bucket => bucket.Share / total * bucket.Bytes);
    }

    /// <summary>The shortest length drawn.</summary>
    public int Min { get; }

    /// <summary>The longest length drawn.</summary>
    public int Max { get; }

    /// <summary>The mean length over many records.</summary>
    public double Mean { get; }

    /// <summary>Whether every record has the same length.</summary>
    public bool IsFixed => Min == Max;

    /// <summary>The buckets, or for a range its two ends (each with share 1).</summary>
    public IReadOnlyList<LengthBucket> Buckets => _buckets;

    /// <summary>Whether the length is uniform between <see cref="Min"/> and <see cref="Max"/>.</summary>
    public bool IsRange => _range;

    /// <summary>Every record <paramref name="bytes"/> long.</summary>
    public static LengthDistribution Fixed(int bytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bytes);
        return new([new LengthBucket(1, bytes)], range: false);
    }

    /// <summary>Lengths uniform in <paramref name="min"/> to <paramref name="max"/>, both included.</summary>
    public static LengthDistribution Range(int min, int max)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(min);
        ArgumentOutOfRangeException.ThrowIfLessThan(max, min);
        return new([new LengthBucket(1, min), new LengthBucket(1, max)], range: true);
    }

    /// <summary>Lengths drawn from weighted buckets.</summary>
    public static LengthDistribution Weighted(IEnumerable<LengthBucket> buckets)
    {
        ArgumentNullException.ThrowIfNull(buckets);
        LengthBucket[] array = [.. buckets];
        if (array.Length == 0
            || array.Any(bucket => bucket.Share < 0 || bucket.Bytes < 0 || !double.IsFinite(bucket.Share))
            || array.Sum(bucket => bucket.Share) <= 0)
        {
            throw new ArgumentException("Buckets need at least one positive share and no negative share or length.", nameof(buckets));
        }

        return new(array, range: false);
    }

    /// <summary>
    /// Reads a length distribution as a person writes one: "128" (every record), "100..4096" (uniform, both ends
    /// included) or "80%:200,20%:40KiB" (weighted buckets). A size is a whole number with an optional suffix: B, KiB,
    /// MiB (powers of 1,024), KB or MB (powers of 1,000).
    /// </summary>
    /// <exception cref="FormatException">The text is none of these; the message names the part that is wrong.</exception>
    public static LengthDistribution Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string trimmed = text.Trim();
        if (trimmed.Length == 0)
        {
            throw new FormatException("A length is empty: give a size (128), a range (100..4096) or buckets (80%:200,20%:40KiB).");
        }

        if (trimmed.Contains(':', StringComparison.Ordinal) || trimmed.Contains('%', StringComparison.Ordinal))
        {
            var buckets = new List<LengthBucket>();
            foreach (string part in trimmed.Split(',', StringSplitOptions.TrimEntries))
            {
                string[] pair = part.Split(':', 2, StringSplitOptions.TrimEntries);
                if (pair.Length != 2 || !pair[0].EndsWith('%')
                    || !double.TryParse(pair[0][..^1], NumberStyles.Float, CultureInfo.InvariantCulture, out double share)
                    || !double.IsFinite(share) || share < 0)
                {
                    throw new FormatException($"'{part}' is not a bucket: write share%:size, e.g. 80%:200.");
                }

                buckets.Add(new LengthBucket(share, ParseSize(pair[1])));
            }

            if (buckets.Sum(bucket => bucket.Share) <= 0)
            {
                throw new FormatException($"'{trimmed}' has no bucket with a share above 0%.");
            }

            return Weighted(buckets);
        }

        int dots = trimmed.IndexOf("..", StringComparison.Ordinal);
        if (dots >= 0)
        {
            int min = ParseSize(trimmed[..dots]);
            int max = ParseSize(trimmed[(dots + 2)..]);
            if (max < min)
            {
                throw new FormatException($"'{trimmed}' ends below its start: write the shorter length first.");
            }

            return Range(min, max);
        }

        return Fixed(ParseSize(trimmed));
    }

    /// <summary>The text <see cref="Parse"/> reads back into this distribution: "128", "100..4096", "90%:100,10%:2048".</summary>
    public string ToSpecification() =>
        IsFixed && !IsRange ? Min.ToString(CultureInfo.InvariantCulture)
        : IsRange ? string.Create(CultureInfo.InvariantCulture, $"{Min}..{Max}")
        : string.Join(",", Buckets.Select(bucket => string.Create(CultureInfo.InvariantCulture, $"{bucket.Share:R}%:{bucket.Bytes}")));

    /// <summary>"512", "512B", "4KiB", "1 MiB", "40KB": a size in bytes, at most <see cref="int.MaxValue"/>.</summary>
    /// <exception cref="FormatException">The text is no size.</exception>
    public static int ParseSize(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string trimmed = text.Trim();
        int digits = 0;
        while (digits < trimmed.Length && char.IsAsciiDigit(trimmed[digits]))
        {
            digits++;
        }

        long multiplier = trimmed[digits..].Trim().ToUpperInvariant() switch
        {
            "" or "B" => 1,
            "KIB" => 1L << 10,
            "MIB" => 1L << 20,
            "KB" => 1_000,
            "MB" => 1_000_000,
            _ => 0,
        };
        if (digits == 0 || multiplier == 0 || !long.TryParse(trimmed[..digits], NumberStyles.None, CultureInfo.InvariantCulture, out long number))
        {
            throw new FormatException($"'{trimmed}' is not a size: write a whole number of bytes, optionally with B, KiB, MiB, KB or MB.");
        }

        if (number > int.MaxValue / multiplier)
        {
            throw new FormatException($"'{trimmed}' is longer than the {int.MaxValue:N0} bytes a record can hold.");
        }

        return (int)(number * multiplier);
    }

    /// <summary>The length of the record whose (number, index) hash is <paramref name="hash"/>.</summary>
    public int LengthOf(ulong hash)
    {
        if (IsFixed)
        {
            return Min;
        }

        if (_range)
        {
            return Min + (int)(hash % (ulong)(Max - Min + 1));
        }

        // The top 53 bits as a uniform draw in [0, 1).
        double draw = (hash >> 11) * (1.0 / (1UL << 53));
        for (int i = 0; i < _cumulative.Length - 1; i++)
        {
            if (draw < _cumulative[i])
            {
                return _buckets[i].Bytes;
            }
        }

        return _buckets[^1].Bytes;
    }

    /// <summary>"128 B", "100 B to 4 KiB, uniform", "80% 200 B, 20% 40 KiB".</summary>
    public override string ToString()
    {
        if (IsFixed)
        {
            return Size(Min);
        }

        if (_range)
        {
            return $"{Size(Min)} to {Size(Max)}, uniform";
        }

        double total = _buckets.Sum(bucket => bucket.Share);
        return string.Join(", ", _buckets.Select(bucket => string.Create(CultureInfo.InvariantCulture, $"{bucket.Share / total:0.#%} {Size(bucket.Bytes)}")));
    }

    /// <inheritdoc/>
    public bool Equals(LengthDistribution? other) =>
        other is not null && _range == other._range && _buckets.SequenceEqual(other._buckets);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as LengthDistribution);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(_range, Min, Max, _buckets.Length);

    /// <summary>"512 B", "40 KiB", "1.5 MiB".</summary>
    public static string Size(long bytes) => bytes switch
    {
        >= 1L << 30 when bytes % (1L << 30) == 0 => string.Create(CultureInfo.InvariantCulture, $"{bytes >> 30} GiB"),
        >= 1L << 20 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (double)(1L << 20):0.##} MiB"),
        >= 1L << 10 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (double)(1L << 10):0.##} KiB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes} B"),
    };
}
