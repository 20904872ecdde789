using KvBench.Evaluation.Workload;


namespace KvBench.Tests.Evaluation.Workload;

public sealed class KeyChooserTests
{
    [Fact]
    public void Zipfian_draws_follow_the_formula_for_the_head_of_the_distribution()
    {
        const int Items = 1_000;
        const int Draws = 2_000_000;
        var generator = new ZipfianGenerator(Items);
        var random = new Random(20_261_122);
        long[] counts = new long[Items];
        for (int i = 0; i < Draws; i++)
        {
            counts[generator.Next(random)]++;
        }

        // Ranks 0 and 1 are drawn exactly by Gray et al.'s method; beyond them it follows the formula only
        // approximately (rank 2 draws about 17% too often here, as in YCSB, which uses the same method), so the rest is
        // checked as a distribution: the share of draws at or below each rank against the formula's.
        for (int rank = 0; rank < 2; rank++)
        {
            double expected = generator.Probability(rank) * Draws;
            Assert.True(Math.Abs(counts[rank] - expected) <= expected * 0.02, $"rank {rank}: {counts[rank]} draws against {expected:0} from the formula.");
        }

        foreach (int rank in (int[])[9, 99, 499, 999])
        {
            double expected = Enumerable.Range(0, rank + 1).Sum(i => generator.Probability(i));
            double measured = counts.Take(rank + 1).Sum() / (double)Draws;
            Assert.True(Math.Abs(measured - expected) <= 0.03, $"share at or below rank {rank}: {measured:0.000} against {expected:0.000} from the formula.");
        }
    }

    [Fact]
    public void Zeta_over_yscb_s_ten_billion_items_is_ycsb_s_constant()
    {
        Assert.Equal(26.46902820178302, ZipfianGenerator.Zeta(10_000_000_000, ZipfianGenerator.DefaultTheta), precision: 6);
        Assert.Equal(ZipfianGenerator.Zeta(0, 5_000, 0.99, 0), ZipfianGenerator.Zeta(5_000, 0.99), precision: 12);
    }

    [Fact]
    public void Growing_the_item_count_extends_zeta_as_recomputing_it_would()
    {
        var grown = new ZipfianGenerator(1_000);
        grown.Grow(50_000);

        Assert.Equal(new ZipfianGenerator(50_000).ZetaN, grown.ZetaN, precision: 9);
    }

    [Theory]
    [InlineData(KeyDistribution.Uniform)]
    [InlineData(KeyDistribution.Zipfian)]
    [InlineData(KeyDistribution.Latest)]
    public void Every_chooser_stays_within_the_records_that_exist(KeyDistribution distribution)
    {
        long existing = 500;
        KeyChooser chooser = KeyChooser.Create(distribution, 500, () => existing);
        var random = new Random(3);
        for (int i = 0; i < 50_000; i++)
        {
            existing += i % 100 == 0 ? 1 : 0;
            Assert.InRange(chooser.Next(random), 0, existing - 1);
        }
    }

    [Fact]
    public void Latest_favours_the_newest_records_and_scrambled_zipfian_spreads_its_hot_records()
    {
        var random = new Random(5);
        KeyChooser latest = KeyChooser.Create(KeyDistribution.Latest, 10_000, () => 10_000);
        KeyChooser zipfian = KeyChooser.Create(KeyDistribution.Zipfian, 10_000, () => 10_000);
        long[] latestDraws = [.. Enumerable.Range(0, 20_000).Select(_ => latest.Next(random))];
        long[] zipfianDraws = [.. Enumerable.Range(0, 20_000).Select(_ => zipfian.Next(random))];

        Assert.True(latestDraws.Count(index => index >= 9_990) > 20_000 * 0.3, "The newest ten records should draw a third of the picks.");
        Assert.True(zipfianDraws.Count(index => index < 10) < 20_000 * 0.05, "Scrambling should move the hot records away from the first indexes.");
        Assert.True(zipfianDraws.GroupBy(index => index).Max(group => group.Count()) > 20_000 * 0.02, "Some record should still be hot.");
    }
}
