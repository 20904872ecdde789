using System.Diagnostics;

using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Measuring;

namespace KvBench.Tests.Benchmarks;

/// <summary>
/// <see cref="PairedRounds"/> on simulated timers, whose ticks are computed, not measured, so the rounds' ratios are
/// exact and a test of them cannot pass by the machine's luck.
/// </summary>
public sealed class PairedRoundsTests
{
    private static readonly PairedPriceSettings s_settings = new() { Rounds = 8, Block = TimeSpan.FromMilliseconds(1), Warmup = TimeSpan.FromMilliseconds(1) };

    /// <summary>
    /// Two sides as fast as each other, each block slower by <paramref name="refill"/> of its time when the other side ran
    /// just before (its caches to fill again), as FASTER's Get at 1028 B was measured.
    /// </summary>
    private static PairedSamples EqualSidesWithRefill(double refill, double rowCost = 100, double referenceCost = 100)
    {
        string? last = null;
        long Block(string side, double cost, int operations)
        {
            double ticks = operations * cost * (last is not null && last != side ? 1 + refill : 1);
            last = side;
            return (long)ticks;
        }

        return PairedRounds.Measure(operations => Block("row", rowCost, operations), operations => Block("reference", referenceCost, operations), s_settings);
    }

    [Fact]
    public void A_refill_after_the_other_side_falls_on_both_sides_of_every_round()
    {
        PairedSamples samples = EqualSidesWithRefill(refill: 0.7);

        // With one block a side per round, alternately first, these rounds were 1/1.7 and 1.7 by turns.
        Assert.Equal(s_settings.Rounds, samples.Ratios.Length);
        Assert.All(samples.Ratios, ratio => Assert.Equal(1.0, ratio, 3));
    }

    [Fact]
    public void A_slower_row_gives_its_ratio_in_every_round_and_the_reference_time_per_operation()
    {
        PairedSamples samples = EqualSidesWithRefill(refill: 0.5, rowCost: 120, referenceCost: 100);

        Assert.All(samples.Ratios, ratio => Assert.Equal(1.2, ratio, 2));

        // The reference's time per call is that of its block after its own, without the refill its other block paid.
        double nanosecondsPerTick = 1e9 / Stopwatch.Frequency;
        Assert.All(samples.ReferenceNanoseconds, nanoseconds => Assert.Equal(100 * nanosecondsPerTick, nanoseconds, 1));
    }
}
