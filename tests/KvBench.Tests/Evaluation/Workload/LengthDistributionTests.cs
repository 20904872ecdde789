using KvBench.Evaluation.Workload;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>Length distributions: what each form draws, and how the text a person writes is read.</summary>
public sealed class LengthDistributionTests
{
    private const int Draws = 100_000;

    [Fact]
    public void A_fixed_length_is_every_record_s_length()
    {
        LengthDistribution fixedLength = LengthDistribution.Fixed(128);

        Assert.All(Hashes().Take(1_000), hash => Assert.Equal(128, fixedLength.LengthOf(hash)));
        Assert.True(fixedLength.IsFixed);
    }

    [Fact]
    public void A_range_draws_every_length_between_its_ends_and_none_outside()
    {
        LengthDistribution range = LengthDistribution.Range(100, 110);

        int[] lengths = [.. Hashes().Take(Draws).Select(range.LengthOf)];

        Assert.Equal(100, lengths.Min());
        Assert.Equal(110, lengths.Max());
        Assert.Equal(11, lengths.Distinct().Count());
        Assert.InRange(lengths.Average(), 104.9, 105.1);
    }

    [Fact]
    public void Buckets_are_drawn_close_to_their_shares()
    {
        LengthDistribution buckets = LengthDistribution.Weighted([new(80, 200), new(15, 1_000), new(5, 40 * 1024)]);

        int[] lengths = [.. Hashes().Take(Draws).Select(buckets.LengthOf)];

        Assert.InRange(lengths.Count(length => length == 200) / (double)Draws, 0.79, 0.81);
        Assert.InRange(lengths.Count(length => length == 1_000) / (double)Draws, 0.14, 0.16);
        Assert.InRange(lengths.Count(length => length == 40 * 1024) / (double)Draws, 0.045, 0.055);
    }

    [Theory]
    [InlineData("128", 128, 128, false)]
    [InlineData(" 4KiB ", 4096, 4096, false)]
    [InlineData("1 MiB", 1 << 20, 1 << 20, false)]
    [InlineData("2KB", 2_000, 2_000, false)]
    [InlineData("1MB", 1_000_000, 1_000_000, false)]
    [InlineData("16B", 16, 16, false)]
    [InlineData("100..4096", 100, 4096, true)]
    [InlineData("1KiB..1MiB", 1024, 1 << 20, true)]
    public void Sizes_and_ranges_parse(string text, int min, int max, bool range)
    {
        LengthDistribution parsed = LengthDistribution.Parse(text);

        Assert.Equal((min, max, range), (parsed.Min, parsed.Max, parsed.IsRange));
    }

    [Fact]
    public void Buckets_parse_with_their_shares_and_sizes()
    {
        LengthDistribution parsed = LengthDistribution.Parse("80%:200,20%:40KiB");

        Assert.Equal(LengthDistribution.Weighted([new(80, 200), new(20, 40 * 1024)]), parsed);
        Assert.Equal("80% 200 B, 20% 40 KiB", parsed.ToString());
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData("abc", "'abc' is not a size")]
    [InlineData("12Q", "'12Q' is not a size")]
    [InlineData("-5", "'-5' is not a size")]
    [InlineData("1.5KiB", "'1.5KiB' is not a size")]
    [InlineData("4096..100", "ends below its start")]
    [InlineData("100..", "'' is not a size")]
    [InlineData("80%:200,20%", "'20%' is not a bucket")]
    [InlineData("80:200", "'80:200' is not a bucket")]
    [InlineData("0%:200", "no bucket with a share above 0%")]
    [InlineData("3000MiB", "longer than")]
    [InlineData("5GB", "'5GB' is not a size")]
    public void A_bad_length_is_a_format_error_that_names_the_problem(string text, string reason)
    {
        FormatException error = Assert.Throws<FormatException>(() => LengthDistribution.Parse(text));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("random", 0)]
    [InlineData("Random", 0)]
    [InlineData("prefixed:64", 64)]
    [InlineData("prefixed:1", 1)]
    public void Key_shapes_parse(string text, int prefixes) => Assert.Equal(new KeyShape(prefixes), KeyShape.Parse(text));

    [Theory]
    [InlineData("hashed")]
    [InlineData("prefixed:0")]
    [InlineData("prefixed:")]
    [InlineData("prefixed:-3")]
    public void A_bad_key_shape_is_a_format_error(string text) =>
        Assert.Contains("is not a key shape", Assert.Throws<FormatException>(() => KeyShape.Parse(text)).Message, StringComparison.Ordinal);

    /// <summary>SplitMix64 of 1, 2, 3, ...: a fixed stream of hashes, as a record set's (number, index) hashes are.</summary>
    private static IEnumerable<ulong> Hashes()
    {
        for (ulong i = 1; ; i++)
        {
            ulong x = i * 0x9E3779B97F4A7C15;
            x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9;
            x = (x ^ (x >> 27)) * 0x94D049BB133111EB;
            yield return x ^ (x >> 31);
        }
    }
}
