using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Probes;


namespace KvBench.Tests.Evaluation.Decision;

/// <summary>Figures read from what was measured: a probe that threw is unmeasured with its reason, a size at the search's limit a floor.</summary>
public sealed class DecisionEvidenceTests
{
    private static readonly Driver s_keys = new()
    {
        Name = "keys",
        Quantity = DriverQuantity.Capability,
        Capability = CapabilityCell.KeyBytes,
        Bound = Bound.AtLeast,
        Threshold = 1024,
        Must = true,
    };

    private static readonly DecisionProfile s_profile = new() { Title = "t", Workload = new ProfileWorkload(), Drivers = [s_keys] };

    [Fact]
    public void A_probe_that_threw_leaves_its_figure_unmeasured_with_what_it_threw()
    {
        var option = new OptionEvidence("Broken");
        option.ProbeFailures[CapabilityCell.KeyBytes] = "IOException: the disk went away";
        option.Done.Add(DecisionPhase.Capabilities);

        Figure figure = Evidence(option).FigureOf(option, s_keys);

        Assert.False(figure.IsMeasured);
        Assert.Contains("the disk went away", figure.Unmeasured, StringComparison.Ordinal);
        Assert.Equal(Verdict.Unmeasured, DecisionOutcome.Judge(s_keys, figure));
    }

    [Fact]
    public void A_size_at_the_search_limit_is_a_floor_that_a_higher_threshold_cannot_fail()
    {
        var reached = new OptionEvidence("Reached") { Key = new SizeMeasurement(LargestAcceptedBytes: 1024, SearchLimitBytes: 1024) };
        var stopped = new OptionEvidence("Stopped") { Key = new SizeMeasurement(LargestAcceptedBytes: 511, SearchLimitBytes: 1024) };
        DecisionEvidence evidence = Evidence(reached, stopped);

        Figure floor = evidence.FigureOf(reached, s_keys);
        Figure limit = evidence.FigureOf(stopped, s_keys);

        Assert.NotNull(floor.LimitedBy);
        Assert.Null(limit.LimitedBy);
        Driver stricter = s_keys with { Threshold = 4096 };
        Assert.Equal(Verdict.Undecided, DecisionOutcome.Judge(stricter, floor));
        Assert.Equal(Verdict.Missed, DecisionOutcome.Judge(stricter, limit));
    }

    private static DecisionEvidence Evidence(params OptionEvidence[] options) => new(s_profile, new DecisionSettings(), options, floor: null);
}
