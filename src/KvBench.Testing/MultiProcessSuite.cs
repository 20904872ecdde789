using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// The store from two real processes: this test process and a <c>kvbench</c> process (<see cref="KvBenchProcess"/>)
/// on one directory at once. What the second process gets must be what the store declares
/// (<see cref="StoreCapabilities.MultiProcess"/>): Shared, both write at once and every acknowledged record of each is
/// there afterwards; OneWriter, the second writer is locked out with the typed error and a read-only open reads;
/// Exclusive, every second open is locked out.
/// </summary>
public abstract class MultiProcessSuite : StoreSuite
{
    private const int LoadedFirst = 200;
    private const int SecondWriterRecords = 3000;
    private const ulong FirstSet = 1;
    private const ulong SecondSet = 2;

    private static readonly TimeSpan s_deadline = TimeSpan.FromSeconds(240);

    [Theory]
    [MemberData(PersistentRowsMember)]
    public async Task A_second_process_gets_what_the_declared_multi_process_level_promises(string name)
    {
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path, .. KvBenchRowArguments(name)];
        KvBenchRun loaded = await Kvbench(["load", .. store, "--records", $"{LoadedFirst}", "--record-set", $"{FirstSet}"]);
        Assert.True(loaded.ExitCode == KvBenchProcess.Ok, loaded.ToString());

        IKeyValueStore mine = Open(name, directory);
        try
        {
            switch (mine.Capabilities.MultiProcess)
            {
                case MultiProcessLevel.Shared:
                    await BothWrite(name, mine, store);
                    return;
                case MultiProcessLevel.OneWriter:
                    await AssertLockedOut(["load", .. store, "--records", "1", "--record-set", $"{SecondSet}"]);
                    KvBenchRun read = await Kvbench(Verify(store, "ReadOnly"));
                    Assert.True(read.ExitCode == KvBenchProcess.Ok, read.ToString());
                    break;
                case MultiProcessLevel.Exclusive:
                    await AssertLockedOut(["load", .. store, "--records", "1", "--record-set", $"{SecondSet}"]);
                    await AssertLockedOut(Verify(store, "ReadOnly"));
                    break;
                default:
                    Assert.Fail($"{name} keeps its data in files but declares {mine.Capabilities.MultiProcess}, which no second process can check.");
                    break;
            }
        }
        finally
        {
            mine.Dispose();
        }

        KvBenchRun intact = await Kvbench(Verify(store, "ReadWrite"));
        Assert.True(intact.ExitCode == KvBenchProcess.Ok, intact.ToString());
    }

    /// <summary>A second process loads its records one Put at a time while this one writes its own; then both sets are read back.</summary>
    private async Task BothWrite(string name, IKeyValueStore mine, string[] store)
    {
        Task<KvBenchRun> other = Kvbench(["load", .. store, "--records", $"{SecondWriterRecords}", "--record-set", $"{SecondSet}", "--batch", "1"]);
        var written = new List<int>();
        for (int i = 0; !other.IsCompleted || written.Count < 100; i++)
        {
            mine.Put(TestData.Key(i), TestData.Bytes(100, stream: i));
            written.Add(i);
        }

        mine.Flush();
        KvBenchRun second = await other;
        Assert.True(second.ExitCode == KvBenchProcess.Ok, second.ToString());
        mine.Dispose();

        KvBenchRun first = await Kvbench(Verify(store, "ReadWrite"));
        Assert.True(first.ExitCode == KvBenchProcess.Ok, first.ToString());
        KvBenchRun loaded = await Kvbench(
            ["verify", .. store, "--records", $"{SecondWriterRecords}", "--record-set", $"{SecondSet}"]);
        Assert.True(loaded.ExitCode == KvBenchProcess.Ok, loaded.ToString());
        using IKeyValueStore reopened = Open(name, new StoreOptions { Directory = store[3] });
        int[] lost = [.. written.Where(i => reopened.Get(TestData.Key(i)) is not { } value || !value.AsSpan().SequenceEqual(TestData.Bytes(100, stream: i)))];
        Assert.True(lost.Length == 0, $"{lost.Length} of the {written.Count} records this process wrote beside the second one are missing or wrong.");
    }

    private static async Task AssertLockedOut(string[] arguments)
    {
        KvBenchRun run = await Kvbench(arguments);
        Assert.True(run.ExitCode == KvBenchProcess.StoreLocked, $"A second process was not locked out: {run}");
    }

    private static string[] Verify(string[] store, string access) =>
        ["verify", .. store, "--records", $"{LoadedFirst}", "--record-set", $"{FirstSet}", "--access", access];

    private static Task<KvBenchRun> Kvbench(string[] arguments) => KvBenchProcess.Locate().RunAsync(arguments, s_deadline);
}

/// <summary>The multi-process suite over a team's row, <typeparamref name="TDefinition"/>: derive it with no members.</summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class MultiProcessSuite<TDefinition> : MultiProcessSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row, when it keeps data past a dispose.</summary>
    public static TheoryData<string> PersistentRowsUnderTest => DefinitionRows<TDefinition>.PersistentRows;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);

    /// <inheritdoc/>
    protected override IReadOnlyList<string> KvBenchRowArguments(string name) => DefinitionRows<TDefinition>.KvBenchArguments;
}
