using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Stores;



namespace KvBench.Tests.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// Power-loss rounds through real processes and a real mount: a crash writer's store directory sits on the power-cut
/// file system, the writer is killed at a random moment and the power cut, and the store is reopened on what was
/// flushed. At Synced nothing acknowledged may be lost or torn and every reopen must succeed; at Buffered a row may
/// lose, and the control shows the cut does drop unflushed writes. A short form of what the <c>powerloss</c> section
/// runs; <c>KVBENCH_POWER_ROUNDS</c> sets the rounds.
/// </summary>
[Trait("Category", "Long")]
public sealed class PowerLossRoundTests(ITestOutputHelper output)
{
    private const int Rounds = 3;

    [Theory]
    [MemberData(nameof(SyncedTiers))]
    public async Task No_acknowledged_record_is_lost_at_a_Synced_acknowledgement_when_the_power_is_cut(string name, Durability durability)
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await PowerLossRounds.RunAsync(
            KvBenchCli.Locate(), name, durability, directory.Path, PowerLossRounds.RoundsFromEnvironment(Rounds), cutMoments: 7);

        output.WriteLine(result.Outcome);
        AssertNothingLost(result);
    }

    /// <summary>Power cuts that acknowledged a record every round lost none, tore none, and reopened every time.</summary>
    internal static void AssertNothingLost(CrashRoundsResult result)
    {
        Assert.Equal(CrashKill.Power, result.Killed);
        Assert.True(result.Acknowledged >= result.Rounds, "Every round acknowledges at least its first record.");
        Assert.Empty(result.ReopenFailures);
        Assert.Equal(0, result.Lost);
        Assert.Equal(0, result.Torn);
    }

    [Fact]
    public async Task A_Buffered_row_loses_what_it_did_not_flush_so_the_Synced_check_can_fail()
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await PowerLossRounds.RunAsync(
            KvBenchCli.Locate(), "LMDB", Durability.Buffered, directory.Path, Rounds, cutMoments: 7, tornCuts: false);

        output.WriteLine(result.Outcome);
        Assert.True(result.Lost > 0, $"LMDB at Buffered flushes no commit, yet {result.Acknowledged:N0} records acknowledged before power cuts all survived.");
    }

    /// <summary>
    /// Every row at Synced, and every tier of a row that flushes every write whatever the tier: its tables print Synced
    /// for its Buffered tier too, which a power cut must not disprove.
    /// </summary>
    public static TheoryData<string, Durability> SyncedTiers
    {
        get
        {
            var tiers = new TheoryData<string, Durability>();
            foreach ((string store, Durability durability) in PowerLossRounds.Tiers()
                .Where(tier => tier.Durability == Durability.Synced || StoreCatalog.DeclaredCapabilities(tier.Store).SyncsEveryWrite))
            {
                tiers.Add(store, durability);
            }

            return tiers;
        }
    }
}
