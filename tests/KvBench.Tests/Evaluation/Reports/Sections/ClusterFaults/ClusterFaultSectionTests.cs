using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.ClusterFaults;
using KvBench.Stores.Etcd;
using KvBench.Stores.Servers;

namespace KvBench.Tests.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>What the cluster fault section makes of its results: a lost update or a stale read fails the run, and the table says what the client saw.</summary>
public sealed class ClusterFaultSectionTests
{
    private static readonly FaultPhaseLatency s_phase = new(100, 0, 12.5, 20);

    [Fact]
    public void A_lost_update_or_a_stale_read_is_a_problem_and_a_clean_fault_is_none()
    {
        var section = new ClusterFaultSection(AdrPreset.Quick)
        {
            Results =
            [
                Result(MemberFault.Kill, FaultTarget.Leader, lost: 0, stale: 0),
                Result(MemberFault.Kill, FaultTarget.Follower, lost: 2, stale: 0),
                Result(MemberFault.Pause, FaultTarget.Leader, lost: 0, stale: 3),
            ],
        };

        IReadOnlyList<string> problems = section.Problems();

        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, problem => problem.Contains("lost 2 acknowledged updates when its follower was faulted (Kill)", StringComparison.Ordinal));
        Assert.Contains(problems, problem => problem.Contains("3 stale reads when its leader was faulted (Pause)", StringComparison.Ordinal));
    }

    [Fact]
    public void The_table_has_a_line_per_fault_with_its_errors_and_how_long_updates_stalled()
    {
        using var directory = new TempDirectory();
        var section = new ClusterFaultSection(AdrPreset.Quick) { Results = [Result(MemberFault.Kill, FaultTarget.Leader, lost: 0, stale: 0)] };
        var markdown = new AdrMarkdown(images: null, MachineInfo.Collect(directory.Path), "the test");

        section.WriteTo(markdown);

        string text = markdown.Output.ToString();
        Assert.Contains(
            "etcd | Raft, 3 members on this machine | Kill leader | 1 | 250 | 0 | 240 | 0 | 4 " +
                "StoreUnavailableException (Unavailable) | 1.75 s | 12.5 / 20.0 |",
            text,
            StringComparison.Ordinal);
        Assert.Contains("kvbench cluster fault", text, StringComparison.Ordinal);
    }

    private static ClusterFaultResult Result(MemberFault fault, FaultTarget target, int lost, int stale) => new(
        EtcdRow.RowName,
        ClusterFaultSettings.Short with { Fault = fault, Target = target },
        Member: 1,
        LeaderAfter: 0,
        WritesAcknowledged: 250,
        LostAfterRun: lost,
        Reads: 240,
        StaleReads: stale,
        Errors: new Dictionary<string, int> { ["StoreUnavailableException (Unavailable)"] = 4 },
        LongestStallSeconds: 1.75,
        Before: s_phase,
        During: s_phase,
        After: s_phase);
}
