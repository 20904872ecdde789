using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.Survival;

namespace KvBench.Tests.Evaluation.Reports.Sections.Survival;

/// <summary>What every row survives: one line per row and tier, embedded rows' process kills beside server rows' process and server kills.</summary>
public sealed class SurvivalTableTests
{
    [Fact]
    public void Embedded_rows_show_their_process_kills_and_no_server_and_server_rows_both_kills()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown(
            [
                new CrashRoundsResult("Sqlite_WAL", Durability.Buffered, 10, 1_000, 0, 0, []),
                new CrashRoundsResult("Redis", Durability.Buffered, 10, 900, 0, 0, []),
            ],
            [new CrashRoundsResult("Redis", Durability.Buffered, 10, 800, 0, 0, []) { Killed = CrashKill.Server }]));

        Assert.Equal(
            "Row | Tier | Acknowledged | Setting | Process killed: rounds | acknowledged | lost | Server killed: " +
                "rounds | acknowledged | lost | Survives |",
            lines[0]);
        Assert.Equal("Sqlite_WAL | Buffered | Buffered | - | 10 | 1,000 | 0 | no server | - | - | a process kill |", lines[2]);
        Assert.Equal("Redis | Buffered | Buffered | `appendfsync no` | 10 | 900 | 0 | 10 | 800 | 0 | a process kill and a server kill |", lines[3]);
    }

    [Fact]
    public void A_server_setting_weaker_than_its_tier_is_named_by_what_it_keeps_and_a_loss_shows_which_kill_broke_it()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown(
            [new CrashRoundsResult("PostgreSQL", Durability.Buffered, 10, 900, 0, 0, [])],
            [new CrashRoundsResult("PostgreSQL", Durability.Buffered, 10, 800, 14, 0, []) { Killed = CrashKill.Server }]));

        Assert.Equal(
            "PostgreSQL | Buffered | server memory up to 600 ms | `synchronous_commit=off` | 10 | 900 | 0 | 10 | 800 " +
                "| 14 | a process kill, not a server kill |",
            lines[2]);
    }

    [Fact]
    public void A_server_row_whose_server_was_not_killed_says_so()
    {
        string[] lines = Lines(SurvivalTable.ToMarkdown([new CrashRoundsResult("Redis", Durability.Synced, 10, 900, 0, 1, [])], []));

        Assert.Equal(
            "Redis | Synced | Synced | `appendfsync always` | 10 | 900 | 0, 1 torn, 0 reopens failed | not measured " +
                "| - | - | not a process kill; server kill not measured |",
            lines[2]);
    }

    private static string[] Lines(MarkdownTable table)
    {
        var output = new System.Text.StringBuilder();
        table.WriteTo(output);
        return output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }
}
