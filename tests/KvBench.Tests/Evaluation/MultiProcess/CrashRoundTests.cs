using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Tests.Stores.Conformance;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// Crash rounds through real processes: a writer acknowledges each record after Put returned (after Flush on a row that
/// holds writes in memory until then) and is killed with SIGKILL at a random moment; the store must reopen with every
/// acknowledged record and its exact bytes. A few rounds per row and tier by default, many more under
/// <c>Category=Long</c>; <c>KVBENCH_CRASH_ROUNDS</c> sets the rounds of both.
/// </summary>
[Trait("Category", "Crash")]
public sealed class CrashRoundTests(ITestOutputHelper output)
{
    private const int DefaultRounds = 3;
    private const int LongRounds = 10;

    [Theory]
    [MemberData(nameof(PersistentTiers))]
    public Task No_acknowledged_record_is_lost_when_the_writer_is_killed(string name, Durability durability) =>
        KillRounds(name, durability, CrashRounds.RoundsFromEnvironment(DefaultRounds), killMomentsOffset: 0);

    /// <summary>Other kill moments than the short form's (another number), as many as a soak wants.</summary>
    [Theory]
    [Trait("Category", "Long")]
    [MemberData(nameof(PersistentTiers))]
    public Task No_acknowledged_record_is_lost_in_many_rounds_of_killing_the_writer(string name, Durability durability) =>
        KillRounds(name, durability, CrashRounds.RoundsFromEnvironment(LongRounds), killMomentsOffset: 1);

    private async Task KillRounds(string name, Durability durability, int rounds, int killMomentsOffset)
    {
        using var directory = new TempDirectory();

        CrashRoundsResult result = await CrashRounds.RunAsync(
            KvBenchCli.Locate(), name, durability, directory.Path, rounds, killMoments: rounds + killMomentsOffset);

        output.WriteLine($"{name} {durability}: {result.Rounds} rounds, {result.Acknowledged:N0} acknowledged, {result.Lost} lost, {result.Torn} torn");
        Assert.Empty(result.ReopenFailures);
        Assert.True(result.Acknowledged >= rounds, "Every round acknowledges at least its first record.");
        Assert.Equal(0, result.Lost);
        Assert.Equal(0, result.Torn);
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

    public static TheoryData<string, Durability> PersistentTiers
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
}
