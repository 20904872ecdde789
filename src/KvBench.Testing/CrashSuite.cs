using System.Globalization;

using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// Crash rounds through <c>kvbench crash</c>: a <c>kvbench</c> writer acknowledges each record once its tier holds it and
/// is killed with SIGKILL at a random moment, round after round; the store must reopen with every acknowledged record
/// and its exact bytes. <c>KVBENCH_CRASH_ROUNDS</c> sets the rounds (<see cref="Rounds"/> unless set).
/// </summary>
public abstract class CrashSuite : StoreSuite
{
    private static readonly TimeSpan s_deadline = TimeSpan.FromMinutes(5);

    [Theory]
    [MemberData(TiersMember)]
    public Task No_acknowledged_record_is_lost_when_the_writer_is_killed(string name, Durability durability)
    {
        int rounds = int.TryParse(Environment.GetEnvironmentVariable("KVBENCH_CRASH_ROUNDS"), CultureInfo.InvariantCulture, out int set) && set > 0
            ? set
            : Rounds;
        return AssertKillRoundsHold(name, durability, rounds, killMoments: rounds);
    }

    /// <summary>
    /// The rounds per row and tier when <c>KVBENCH_CRASH_ROUNDS</c> is not set. Default: 3. A suite that also soaks its
    /// rows in many more rounds elsewhere may run fewer here.
    /// </summary>
    protected virtual int Rounds => 3;

    /// <summary>
    /// Runs <paramref name="rounds"/> crash rounds on row <paramref name="name"/> at <paramref name="durability"/> in a
    /// directory of their own, and fails unless every record a writer acknowledged is back whole. A derived class can
    /// soak a row in more rounds, at other kill moments than the suite's, with the same check.
    /// </summary>
    /// <param name="name">A row the test class's members name.</param>
    /// <param name="durability">The tier the writers and the reopens use.</param>
    /// <param name="rounds">Writers to kill.</param>
    /// <param name="killMoments">Which kill moments: the same number gives the same moments, so a failure can be repeated.</param>
    protected async Task AssertKillRoundsHold(string name, Durability durability, int rounds, int killMoments)
    {
        using var directory = new TempDirectory();

        KvBenchRun run = await KvBenchProcess.Locate().RunAsync(
            ["crash", "--store", name, "--dir", directory.Combine("store"), "--durability", $"{durability}", "--rounds", $"{rounds}",
                "--kill-moments", $"{killMoments}", .. KvBenchRowArguments(name)],
            s_deadline);

        TestContext.Current.TestOutputHelper?.WriteLine(run.Output);
        Assert.True(run.ExitCode == KvBenchProcess.Ok, run.ToString());
    }
}

/// <summary>The crash rounds over a team's row, <typeparamref name="TDefinition"/>, at each tier it declares: derive it with no members.</summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class CrashSuite<TDefinition> : CrashSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row with each tier it declares.</summary>
    public static TheoryData<string, Durability> TiersUnderTest => DefinitionRows<TDefinition>.Tiers;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);

    /// <inheritdoc/>
    protected override IReadOnlyList<string> KvBenchRowArguments(string name) => DefinitionRows<TDefinition>.KvBenchArguments;
}
