using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Tests.Stores.Conformance;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// KvBench.Testing's crash suite over every row of KvBench's own that keeps data in files, at each tier it offers: a few
/// rounds per row and tier by default, and a soak of many more under <c>Category=Long</c>; <c>KVBENCH_CRASH_ROUNDS</c>
/// sets the rounds of both. A control shows the check can fail.
/// </summary>
[Trait("Category", "Crash")]
public sealed class CrashRoundTests : CrashSuite
{
    private const int LongRounds = 10;

    /// <summary>Two, not the suite's three: the soak below runs ten under Category=Long, and the default run has a time budget.</summary>
    protected override int Rounds => 2;

    public static TheoryData<string, Durability> TiersUnderTest
    {
        get
        {
            var data = new TheoryData<string, Durability>();
            foreach ((string name, Durability durability) in Rows.OfferedTiers.Select(row => row.Data))
            {
                if (StoreCatalog.DeclaredCapabilities(name).Durability != DurabilityTiers.None)
                {
                    data.Add(name, durability);
                }
            }

            return data;
        }
    }

    /// <summary>Other kill moments than the suite's (another number), as many as a soak wants.</summary>
    [Theory]
    [Trait("Category", "Long")]
    [MemberData(TiersMember)]
    public Task No_acknowledged_record_is_lost_in_many_rounds_of_killing_the_writer(string name, Durability durability)
    {
        int rounds = CrashRounds.RoundsFromEnvironment(LongRounds);
        return AssertKillRoundsHold(name, durability, rounds, killMoments: rounds + 1);
    }

    [Fact]
    public async Task A_round_that_acknowledges_before_FASTER_flushes_loses_records_so_the_check_can_fail()
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await CrashRounds.RunAsync(
            KvBenchCli.Locate(), FasterRow.RowName, Durability.Buffered, directory.Path, rounds: 2, killMoments: 1,
            acknowledgeBeforeFlush: true);

        Assert.True(result.Lost > 0, $"FASTER holds writes in memory until Flush, yet {result.Acknowledged:N0} records acknowledged before it all survived.");
    }

    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);
}
