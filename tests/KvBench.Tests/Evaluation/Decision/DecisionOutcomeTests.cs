using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Workload;


namespace KvBench.Tests.Evaluation.Decision;

/// <summary>The outcome is generated from figures alone: must-drivers put options out, weights rank the rest, overlaps are ties.</summary>
public sealed class DecisionOutcomeTests
{
    private static readonly Driver s_rate = new()
    {
        Name = "writes",
        Quantity = DriverQuantity.Throughput,
        Bound = Bound.AtLeast,
        Threshold = 50_000,
        Must = true,
    };
    private static readonly Driver s_latency = new()
    {
        Name = "p99 get",
        Quantity = DriverQuantity.Latency,
        Operation = OperationType.Read,
        Bound = Bound.AtMost,
        Threshold = 1_000_000,
        Weight = 1,
    };
    private static readonly Driver s_shared = new()
    {
        Name = "two writers",
        Quantity = DriverQuantity.Capability,
        Capability = CapabilityCell.MultiProcessWriters,
        Bound = Bound.AtLeast,
        Threshold = 1,
        Must = true,
    };

    [Fact]
    public void An_option_that_misses_a_must_driver_is_out_with_the_figure_that_failed()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_rate, s_latency], [
            Option("Fast", Rounds(60_000, 62_000, 61_000), Rounds(200_000, 210_000, 220_000)),
            Option("Slow", Rounds(30_000, 31_000, 32_000), Rounds(100_000, 100_000, 100_000)),
        ]);

        Assert.Equal("Fast", outcome.Chosen);
        OptionStanding slow = outcome.Standings.Single(standing => standing.Option == "Slow");
        Assert.False(slow.IsIn);
        DriverVerdict failed = Assert.Single(slow.Failed);
        Assert.Same(s_rate, failed.Driver);
        Assert.Equal(31_000, failed.Figure.Value);
        Assert.InRange(failed.Figure.Low, 20_000, 30_000);
    }

    [Fact]
    public void An_interval_that_straddles_a_must_threshold_keeps_the_option_in_as_undecided()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_rate], [Option("Near", Rounds(48_000, 51_000, 52_000))]);

        OptionStanding near = Assert.Single(outcome.Standings);
        Assert.True(near.IsIn);
        Assert.Equal(Verdict.Undecided, Assert.Single(near.Undecided).Verdict);
    }

    [Fact]
    public void Overlapping_score_intervals_are_a_tie_and_clear_ones_a_choice()
    {
        DecisionOutcome tie = DecisionOutcome.Decide([s_latency], [
            Option("A", Rounds(400_000, 500_000, 600_000)),
            Option("B", Rounds(450_000, 550_000, 650_000)),
            Option("C", Rounds(4_000_000, 4_100_000, 4_200_000)),
        ]);
        DecisionOutcome clear = DecisionOutcome.Decide([s_latency], [
            Option("A", Rounds(100_000, 110_000, 120_000)),
            Option("B", Rounds(450_000, 550_000, 650_000)),
        ]);

        Assert.True(tie.IsTie);
        Assert.Null(tie.Chosen);
        Assert.Equal(["A", "B"], tie.Leaders.Select(leader => leader.Option).Order());
        Assert.Equal("a tie between A and B", tie.Summary);
        Assert.Equal("A", clear.Chosen);
    }

    [Fact]
    public void No_option_meeting_every_must_driver_chooses_none_and_names_each_failure()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_rate, s_shared], [
            Option("Fast", Rounds(60_000, 61_000, 62_000), Figure.Once(0, "capability-probes")),
            Option("Shared", Rounds(1_000, 1_100, 1_200), Figure.Once(1, "capability-probes")),
        ]);

        Assert.Empty(outcome.Leaders);
        Assert.Equal("no option", outcome.Summary);
        Assert.All(outcome.Standings, standing => Assert.Single(standing.Failed));
    }

    [Fact]
    public void A_figure_the_runner_bounds_never_decides_between_two_options_it_bounds()
    {
        Driver weightedRate = s_rate with { Must = false, Weight = 1 };
        DecisionOutcome outcome = DecisionOutcome.Decide([weightedRate], [
            Option("Floor-bound A", Rounds(1_000_000, 1_100_000, 1_200_000) with { LimitedBy = "runner" }),
            Option("Floor-bound B", Rounds(1_500_000, 1_600_000, 1_700_000) with { LimitedBy = "runner" }),
        ]);

        Assert.True(outcome.IsTie);
    }

    [Fact]
    public void An_unmeasured_figure_on_a_must_driver_puts_the_option_out()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_rate], [Option("Closed", Figure.Missing("does not offer Synced durability", "workload-rounds"))]);

        Assert.Equal(Verdict.Unmeasured, Assert.Single(Assert.Single(outcome.Standings).Failed).Verdict);
    }

    [Fact]
    public void What_would_change_the_decision_names_the_threshold_at_which_the_leader_changes()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_rate, s_latency], [
            Option("Fast", Rounds(60_000, 61_000, 62_000), Rounds(900_000, 950_000, 990_000)),
            Option("Quick", Rounds(55_000, 56_000, 57_000), Rounds(100_000, 110_000, 120_000)),
        ]);

        Assert.Equal("Quick", outcome.Chosen);
        string rate = DecisionSensitivity.Describe(outcome)[0];

        // Raised past where Quick's next round could land, only Fast is left.
        Assert.Matches("tightened to ≥ [0-9,]+ ops/s, the outcome becomes Fast", rate);
    }

    [Fact]
    public void A_figure_reaches_where_a_further_round_is_expected_not_only_the_rounds_measured()
    {
        Figure figure = Rounds(100, 110, 120);

        Assert.Equal(110, figure.Value);
        Assert.True(figure.Low < 100 && figure.High > 120, $"{figure.Low} to {figure.High}");
        Assert.Equal(figure.Value * figure.Value, figure.Low * figure.High, 0.05 * figure.Value * figure.Value);
    }

    [Fact]
    public void Rounds_that_agree_exactly_or_include_zero_keep_a_finite_interval_from_zero_up()
    {
        Figure same = Rounds(100, 100, 100);
        Figure withZero = Rounds(0, 2, 4);

        Assert.Equal((100.0, 100.0), (same.Low, same.High));
        Assert.Equal(0, withZero.Low);
        Assert.True(withZero.High > 4);
    }

    [Fact]
    public void Two_options_close_on_the_weighted_driver_are_a_tie_not_a_choice()
    {
        // The least to the most of these rounds do not overlap; where a further round could land does.
        DecisionOutcome outcome = DecisionOutcome.Decide([s_latency], [
            Option("First", Rounds(780_000, 800_000, 820_000)),
            Option("Second", Rounds(880_000, 900_000, 920_000)),
        ]);

        Assert.True(outcome.IsTie, outcome.Summary);
    }

    [Fact]
    public void A_figure_of_one_round_decides_its_verdict_but_ranks_no_option_above_another()
    {
        DecisionOutcome outcome = DecisionOutcome.Decide([s_latency], [
            Option("Once", Rounds(100_000)),
            Option("Far", Rounds(900_000, 900_000, 900_000)),
        ]);

        Assert.True(Rounds(100_000).SpreadUnknown);
        Assert.True(outcome.IsTie, outcome.Summary);
        Assert.Equal(Verdict.Met, DecisionOutcome.Judge(s_rate, Rounds(60_000)));
    }

    private static Figure Rounds(params double[] rounds) => Figure.FromRounds(rounds, "workload-rounds");

    private static OptionFigures Option(string name, params Figure[] figures) => new(name, figures);
}
