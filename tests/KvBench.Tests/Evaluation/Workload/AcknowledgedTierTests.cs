using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Etcd;
using KvBench.Stores.Faster;
using KvBench.Stores.Lmdb;
using KvBench.Stores.MariaDb;
using KvBench.Stores.PostgreSql;
using KvBench.Stores.Redis;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>
/// One meaning per tier: a row whose setting keeps less than its tier is named by what it keeps, in every workload
/// table that sets rows side by side.
/// </summary>
public sealed class AcknowledgedTierTests
{
    [Theory]
    [InlineData(PostgreSqlRow.RowName, Durability.Buffered, "server memory up to 600 ms")]
    [InlineData(PostgreSqlRow.RowName, Durability.Synced, "Synced")]
    [InlineData(RedisRow.RowName, Durability.Buffered, "Buffered")]
    [InlineData(GarnetRow.RowName, Durability.Buffered, "Buffered until a later recovery")]
    [InlineData(MariaDbRow.RowName, Durability.Buffered, "Buffered")]
    [InlineData(EtcdRow.RowName, Durability.Buffered, "Synced")]
    [InlineData(FasterRow.RowName, Durability.Buffered, AcknowledgedTier.MemoryUntilFlush)]
    [InlineData(LmdbRow.RowName, Durability.Buffered, "Buffered")]
    [InlineData("Not_a_row", Durability.Synced, "Synced")]
    public void A_rows_cell_says_what_its_acknowledged_write_had_reached(string row, Durability tier, string expected) =>
        Assert.Equal(expected, AcknowledgedTier.Label(row, tier));

    [Fact]
    public void A_rows_known_loss_is_shown_as_broken_but_is_no_new_failure_of_the_run_and_anything_else_broken_still_is()
    {
        var garnetLost = new CrashRoundsResult(GarnetRow.RowName, Durability.Buffered, 10, 10_000, 9_000, 0, []) { Killed = CrashKill.Server };
        var garnetTorn = garnetLost with { Torn = 1 };
        var redisLost = new CrashRoundsResult(RedisRow.RowName, Durability.Buffered, 10, 10_000, 1, 0, []) { Killed = CrashKill.Server };

        Assert.True(ServerKillVerdict.Broken(garnetLost));
        Assert.StartsWith("broken: 9,000 acknowledged writes lost", ServerKillVerdict.Of(garnetLost), StringComparison.Ordinal);
        Assert.False(ServerKillVerdict.IsNewFailure(garnetLost));
        Assert.True(ServerKillVerdict.IsNewFailure(garnetTorn));
        Assert.True(ServerKillVerdict.IsNewFailure(redisLost));
    }

    [Fact]
    public void The_workload_tables_carry_the_column_when_they_know_the_tier_and_leave_it_out_when_not()
    {
        WorkloadResult postgres = Result(PostgreSqlRow.RowName);
        WorkloadResult lmdb = Result(LmdbRow.RowName);

        string[] withTier = Lines(WorkloadTables.Ycsb([postgres, lmdb], Durability.Buffered));
        string[] threads = Lines(ThreadTables.Threads([postgres, lmdb], Durability.Buffered));
        string[] withoutTier = Lines(WorkloadTables.Ycsb([postgres, lmdb]));

        Assert.StartsWith("Row | Acknowledged | Workload |", withTier[0], StringComparison.Ordinal);
        Assert.StartsWith("PostgreSQL | server memory up to 600 ms | YCSB-C |", withTier[2], StringComparison.Ordinal);
        Assert.StartsWith("LMDB | Buffered | YCSB-C |", withTier[3], StringComparison.Ordinal);
        Assert.StartsWith("Row | Acknowledged | Mix |", threads[0], StringComparison.Ordinal);
        Assert.StartsWith("PostgreSQL | server memory up to 600 ms | YCSB-C |", threads[2], StringComparison.Ordinal);
        Assert.StartsWith("Row | Workload |", withoutTier[0], StringComparison.Ordinal);
    }

    private static WorkloadResult Result(string row) => new()
    {
        Store = row,
        Workload = YcsbWorkloads.C,
        Settings = new RunSettings { Threads = 1 },
        Elapsed = TimeSpan.FromSeconds(1),
        Operations = [new OperationResult(OperationType.Read, 1_000, new LatencySummary(Count: 1, Mean: 1, P50: 1, P95: 1, P99: 1, P999: 1, Max: 1))],
    };

    private static string[] Lines(MarkdownTable table)
    {
        var output = new System.Text.StringBuilder();
        table.WriteTo(output);
        return output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }
}
