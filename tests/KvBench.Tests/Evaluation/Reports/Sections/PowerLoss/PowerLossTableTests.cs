using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Evaluation.Reports.Sections.Survival;


namespace KvBench.Tests.Evaluation.Reports.Sections.PowerLoss;

/// <summary>The power-cut column of the "what it survives" table, and which power-loss results are problems of a run.</summary>
public sealed class PowerLossTableTests
{
    [Fact]
    public void Power_cuts_get_their_own_columns_and_a_Buffered_loss_says_which_kill_broke_it()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown(
            [
                new CrashRoundsResult("LMDB", Durability.Buffered, 10, 1_000, 0, 0, []),
                new CrashRoundsResult("LMDB", Durability.Synced, 10, 500, 0, 0, []),
            ],
            [],
            [
                new CrashRoundsResult("LMDB", Durability.Buffered, 20, 2_000, 1_500, 0, []) { Killed = CrashKill.Power },
                new CrashRoundsResult("LMDB", Durability.Synced, 20, 700, 0, 0, []) { Killed = CrashKill.Power },
            ]));

        Assert.Equal(
            "Row | Tier | Acknowledged | Setting | Process killed: rounds | acknowledged | lost | Server killed: rounds | acknowledged | lost"
            + " | Power cut: rounds | acknowledged | lost | Survives |",
            lines[0]);
        Assert.Equal("LMDB | Buffered | Buffered | - | 10 | 1,000 | 0 | no server | - | - | 20 | 2,000 | 1,500 | a process kill, not a power cut |", lines[2]);
        Assert.Equal("LMDB | Synced | Synced | - | 10 | 500 | 0 | no server | - | - | 20 | 700 | 0 | a process kill and a power cut |", lines[3]);
    }

    [Fact]
    public void A_server_row_s_power_cuts_stand_beside_its_server_kills()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown(
            [new CrashRoundsResult("Redis", Durability.Synced, 10, 1_000, 0, 0, [])],
            [new CrashRoundsResult("Redis", Durability.Synced, 10, 900, 0, 0, []) { Killed = CrashKill.Server }],
            [new CrashRoundsResult("Redis", Durability.Synced, 20, 800, 0, 0, []) { Killed = CrashKill.Power }]));

        Assert.StartsWith(
            "Redis | Synced | Synced | `appendfsync always` | 10 | 1,000 | 0 | 10 | 900 | 0 | 20 | 800 | 0 |", lines[2], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void The_section_cuts_the_power_under_servers_only_when_the_run_includes_them(bool servers)
    {
        var request = new AdrRequest { OutputFile = "adr.md", Command = "kvbench adr", Servers = servers, Sections = [PowerLossSection.SectionName] };

        PowerLossSection section = Assert.IsType<PowerLossSection>(Assert.Single(request.CreateSections()));

        Assert.Equal(servers, section.Servers);
    }

    [Fact]
    public void Without_power_loss_rounds_the_table_has_no_power_columns()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown([new CrashRoundsResult("LMDB", Durability.Buffered, 10, 1_000, 0, 0, [])], []));

        Assert.DoesNotContain("Power cut", lines[0], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Durability.Buffered, 5, 0, false)]
    [InlineData(Durability.Buffered, 0, 1, true)]
    [InlineData(Durability.Synced, 1, 0, true)]
    [InlineData(Durability.Synced, 0, 0, false)]
    public void A_Synced_loss_or_any_failed_reopen_is_a_problem_and_a_Buffered_loss_is_not(Durability durability, long lost, int reopenFailures, bool broken)
    {
        var result = new CrashRoundsResult("LMDB", durability, 20, 100, lost, 0, [.. Enumerable.Repeat("failed", reopenFailures)]) { Killed = CrashKill.Power };

        Assert.Equal(broken, PowerLossSection.Broken(result));
    }

    private static string[] Lines(MarkdownTable table)
    {
        var output = new System.Text.StringBuilder();
        table.WriteTo(output);
        return output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }
}
