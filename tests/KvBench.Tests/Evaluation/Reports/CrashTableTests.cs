using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;


namespace KvBench.Tests.Evaluation.Reports;

/// <summary>The durability table's crash rounds: every count a run measured in its cell, and a loss is a problem of the run.</summary>
public sealed class CrashTableTests
{
    [Fact]
    public void Each_row_and_tier_shows_its_rounds_acknowledged_lost_and_torn_counts()
    {
        string markdown = CrashTable.ToMarkdown(
        [
            new CrashRoundsResult("Sqlite_WAL", Durability.Synced, 50, 4_876, 0, 0, []),
            new CrashRoundsResult("FASTER", Durability.Buffered, 3, 1_234, 17, 1, ["round 2: damaged"]),
        ]);

        string[] lines = markdown.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal("Row | Tier | Rounds | Acknowledged | Lost | Torn | Reopen failures |", lines[0]);
        Assert.Equal("Sqlite_WAL | Synced | 50 | 4,876 | 0 | 0 | 0 |", lines[2]);
        Assert.Equal("FASTER | Buffered | 3 | 1,234 | 17 | 1 | 1: round 2: damaged |", lines[3]);
    }

    [Theory]
    [InlineData(0, 0, 0, true)]
    [InlineData(1, 0, 0, false)]
    [InlineData(0, 1, 0, false)]
    [InlineData(0, 0, 1, false)]
    public void A_round_holds_only_when_nothing_was_lost_or_torn_and_every_reopen_worked(long lost, long torn, int reopenFailures, bool held) =>
        Assert.Equal(held, new CrashRoundsResult("Row", Durability.Buffered, 3, 100, lost, torn, [.. Enumerable.Repeat("failed", reopenFailures)]).Held);
}
