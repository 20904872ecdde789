using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;
using KvBench.Tests.Stores.Conformance;



namespace KvBench.Tests.Evaluation.Workload;

/// <summary>The runner on real stores: every YCSB preset on every row, every read verified, and a wrong value caught.</summary>
public sealed class WorkloadRunnerTests(ITestOutputHelper output)
{
    /// <summary>
    /// Three windows a preset, not one, for every row. On a loaded machine a short window can end before a rare operation
    /// ran at all: a server's stall (an election, a snapshot, the disk) can outlast both threads' calls, and YCSB-E's
    /// inserts are a small share of its mix, so a slow row may record none in a short window. A longer window for every
    /// preset would only make a short one rarer, and cost every run the time, while a preset run again on a fresh load
    /// costs only the run that fell short. Wrong reads and errors still fail the first window.
    /// </summary>
    internal const int WindowsPerPreset = 3;

    [Theory]
    [MemberData(nameof(Rows.Available), MemberType = typeof(Rows))]
    public void Every_ycsb_preset_runs_on_every_row_with_every_read_right(string name) =>
        RunEveryYcsbPreset(name, windowsPerPreset: WindowsPerPreset, output: output);

    /// <summary>
    /// The check, for any row (<see cref="ServerWorkloadTests"/> runs it over the server rows, with <paramref name="settings"/>
    /// of its own): every read of every window right, and every operation of every preset run in some window of it.
    /// </summary>
    /// <param name="name">The row.</param>
    /// <param name="settings">The windows' lengths; the smoke settings when left out.</param>
    /// <param name="windowsPerPreset">
    /// How many windows a preset may take to show every operation of its mix: a preset whose window recorded none of an
    /// operation, and no error, is run again on a fresh load, up to this many windows in all. Every window's reads are
    /// checked; only the coverage is counted over the windows together.
    /// </param>
    /// <param name="output">Receives a line for every window run again, and why.</param>
    internal static void RunEveryYcsbPreset(string name, SuiteSettings? settings = null, int windowsPerPreset = 1, ITestOutputHelper? output = null)
    {
        using var directory = new TempDirectory();
        settings ??= SuiteSettings.Smoke;

        IReadOnlyList<WorkloadResult> results = WorkloadSuites.Ycsb([name], YcsbWorkloads.All, settings, directory.Path);

        Assert.Equal(YcsbWorkloads.All.Select(workload => workload.Name).Order(), results.Select(result => result.Workload.Name).Order());
        foreach (WorkloadResult first in results)
        {
            var ran = new HashSet<OperationType>();
            long checkedReads = 0;
            WorkloadResult result = first;
            for (int window = 1; ; window++)
            {
                Assert.True(result.Succeeded, $"{name} {result.Workload.Name}: {result.WrongReads} wrong reads, {result.Errors} errors ({result.FirstError}).");
                ran.UnionWith(result.Operations.Where(operation => operation.Latency.Count > 0).Select(operation => operation.Type));
                checkedReads += result.CheckedReads;
                OperationType[] missing = [.. result.Operations.Select(operation => operation.Type).Where(type => !ran.Contains(type))];
                if ((missing.Length == 0 && checkedReads > 0) || window == windowsPerPreset)
                {
                    Assert.True(
                        missing.Length == 0,
                        $"{name} {result.Workload.Name} ran no {string.Join(" and no ", missing)} in {window} " +
                            $"window(s); the last recorded {Counts(result)}.");
                    Assert.True(checkedReads > 0, $"{name} {result.Workload.Name} checked no read in {window} window(s).");
                    break;
                }

                output?.WriteLine(
                    $"{name} {result.Workload.Name}: window {window} recorded {Counts(result)}, no " +
                        $"{string.Join(" and no ", missing)} ({checkedReads} reads checked) and no error; running it " +
                        $"again.");
                result = WorkloadSuites.Ycsb([name], [result.Workload], settings, directory.Path).Single();
            }
        }
    }

    /// <summary>How many of each operation a window recorded, so a window that fell short shows by how much.</summary>
    private static string Counts(WorkloadResult result) =>
        string.Join(", ", result.Operations.Select(operation => $"{operation.Latency.Count} {operation.Type}"));

    [Fact]
    public void A_store_that_returns_another_record_s_bytes_fails_the_run()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadSpec workload = YcsbWorkloads.C with { RecordCount = 200 };
        WorkloadRunner.Load(store, workload);
        var records = new RecordSet(workload.ValueBytes);
        for (int i = 1; i < 200; i += 2)
        {
            store.Put(records.Key(i), records.Value(i - 1));
        }

        WorkloadResult result = WorkloadRunner.Run(store, workload, Brief(threads: 2));

        Assert.False(result.Succeeded);
        Assert.InRange(result.WrongReads, 1, result.CheckedReads);
        Assert.Matches("^record [0-9]*[13579] held [0-9]+ bytes that are no version of it", result.FirstWrongRead);
        Assert.Contains($"(first wrong read: {result.FirstWrongRead})", result.Failure, StringComparison.Ordinal);
    }

    [Fact]
    public void A_second_run_on_the_same_store_accepts_the_versions_the_first_run_wrote()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(SqliteRow.WalName, new StoreOptions { Directory = directory.Path });

        (WorkloadResult first, WorkloadResult second) = LoadAThenF(store, records: 500, threads: 2);

        Assert.True(first.Succeeded && second.Succeeded, $"{first.WrongReads} and {second.WrongReads} wrong reads.");
        Assert.True(second.CheckedReads > 0);
    }

    [Fact]
    public void An_open_loop_never_runs_ahead_of_its_schedule()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadResult result = LoadAndRun(store, YcsbWorkloads.B with { RecordCount = 1_000 }, Brief(threads: 2) with { TargetOperationsPerSecond = 2_000 });

        // 2,000 a second for 0.3 s of measuring is 600 scheduled operations; a closed loop on Memory does millions.
        Assert.True(result.Succeeded);
        Assert.InRange(result.Operations.Sum(operation => operation.Latency.Count), 1, 600 + 2);
    }

    [Fact]
    public void On_Linux_stopwatch_timestamps_are_the_monotonic_clock_every_process_shares()
    {
        // The open loop sleeps until a timestamp with clock_nanosleep, and kvbench contend subtracts one process's
        // timestamps from another's: both hold only if Stopwatch reads CLOCK_MONOTONIC in nanoseconds.
        Assert.Equal(OperatingSystem.IsLinux(), MonotonicClock.IsSystemMonotonic);
    }

    [Fact]
    public void Scans_return_records_in_key_order_from_their_start_and_each_is_checked()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(LmdbRow.RowName, new StoreOptions { Directory = directory.Path });
        WorkloadResult result = LoadAndRun(store, YcsbWorkloads.E with { RecordCount = 2_000 }, Brief(threads: 1));

        Assert.True(result.Succeeded, $"{result.WrongReads} wrong reads.");
        Assert.True(result.CheckedReads > result.Of(OperationType.Scan)!.Latency.Count, "Each scan checks every record it returns.");
    }

    [Fact]
    public void Logged_writes_name_the_version_each_record_holds_afterwards()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(SqliteRow.WalName, new StoreOptions { Directory = directory.Path });
        var acknowledged = new Dictionary<long, ulong>();

        // Zipfian keys from three threads: without one writer per record, two threads would race on the hottest ones.
        (WorkloadResult first, WorkloadResult second) = LoadAThenF(store, records: 301, threads: 3, acknowledged);

        Assert.True(first.Succeeded && second.Succeeded, $"{first.Failure} {second.Failure}");
        Assert.NotEmpty(acknowledged);
        VerificationResult readBack = new RecordSet(WorkloadSpec.DefaultValueBytes).Verify(
            key => store.Get(key), Enumerable.Range(0, 301).Select(index => (long)index), index => acknowledged.GetValueOrDefault(index));
        Assert.True(readBack.Ok, readBack.ToString());
    }

    [Fact]
    public void Record_keys_lead_back_to_their_index()
    {
        var records = new RecordSet(valueBytes: 64, number: 99);
        for (long index = 0; index < 10_000; index += 7)
        {
            Assert.True(records.TryIndexOf(records.Key(index), out long found));
            Assert.Equal(index, found);
        }

        Assert.False(records.TryIndexOf(new RecordSet(valueBytes: 64, number: 100).Key(5), out _));
        Assert.False(records.TryIndexOf([1, 2, 3], out _));
    }

    /// <summary>Loads YCSB A's records into <paramref name="store"/>, then runs A, then F (read-modify-writes) on them.</summary>
    private static (WorkloadResult First, WorkloadResult Second) LoadAThenF(
        IKeyValueStore store, long records, int threads, IDictionary<long, ulong>? acknowledged = null)
    {
        WorkloadSpec workload = YcsbWorkloads.A with { RecordCount = records };
        WorkloadRunner.Load(store, workload);
        return (WorkloadRunner.Run(store, workload, Brief(threads), acknowledged), WorkloadRunner.Run(
            store,
            YcsbWorkloads.F with { RecordCount = records },
            Brief(threads),
            acknowledged));
    }

    private static WorkloadResult LoadAndRun(IKeyValueStore store, WorkloadSpec workload, RunSettings settings)
    {
        WorkloadRunner.Load(store, workload);
        return WorkloadRunner.Run(store, workload, settings);
    }

    private static RunSettings Brief(int threads) =>
        new() { Threads = threads, Warmup = TimeSpan.FromMilliseconds(50), Duration = TimeSpan.FromMilliseconds(300) };
}

/// <summary>Every YCSB preset on every server row, their servers started once for the class.</summary>
[Trait("Category", "Servers")]
public sealed class ServerWorkloadTests(ITestOutputHelper output) : IClassFixture<ServerHostsFixture>
{
    /// <summary>
    /// A measured window of 1 s, not the smoke settings' 200 ms, and a warm-up of 500 ms, not 50: while other classes
    /// start clusters and install servers on the same cores, both threads' calls can outlast a short window (a call
    /// begun in the warm-up is not measured), and a preset records nothing. The likeliest slow calls are a just-started
    /// server's first of each kind (Garnet, a .NET server, compiles its code as it first runs it), and those fall in the
    /// warm-up.
    /// </summary>
    private static readonly SuiteSettings s_settings = SuiteSettings.Smoke with { Warmup = TimeSpan.FromMilliseconds(500), Duration = TimeSpan.FromSeconds(1) };

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void Every_ycsb_preset_runs_on_every_server_row_with_every_read_right(string name) =>
        WorkloadRunnerTests.RunEveryYcsbPreset(name, s_settings, WorkloadRunnerTests.WindowsPerPreset, output);
}
