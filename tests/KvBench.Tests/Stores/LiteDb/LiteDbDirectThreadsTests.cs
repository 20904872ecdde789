using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.LiteDb;



namespace KvBench.Tests.Stores.LiteDb;

/// <summary>
/// LiteDB_Direct under threads: YCSB-C (reads only) and YCSB-E (scans with concurrent inserts) at four threads on one
/// engine, over a store larger than LiteDB's page cache keeps idle, every read checked; then the store is closed,
/// reopened and every loaded and acknowledged record read back. Without the row's engine lock, LiteDB 5.0.x's page cache
/// hands a reader another page's bytes (docs/findings/litedb-direct-threads.md): wrong reads, damaged scans. The race is
/// rare per second, so <c>dotnet test</c> runs one short round of each mix and <see cref="RunsVariable"/> runs more.
/// </summary>
public sealed class LiteDbDirectThreadsTests(ITestOutputHelper output)
{
    /// <summary>Rounds of each mix; the long form, which the finding's note ran, is 20.</summary>
    internal const string RunsVariable = "KVBENCH_LITEDB_THREAD_RUNS";

    /// <summary>
    /// Enough records that the cache recycles pages while readers hold them: the race needs more idle cached pages than one
    /// segment of LiteDB's cache (1,000 pages of 8 KiB), which 128-byte values reach at a few tens of thousands.
    /// </summary>
    private const long Records = 50_000;

    public static TheoryData<string> Mixes => new() { YcsbWorkloads.C.Name, YcsbWorkloads.E.Name };

    [Theory]
    [MemberData(nameof(Mixes))]
    public void Four_threads_on_one_direct_engine_read_every_record_right_and_leave_the_store_whole(string mix)
    {
        WorkloadSpec workload = YcsbWorkloads.All.Single(preset => preset.Name == mix).WithRecords(Records);
        int runs = RunsFromEnvironment();
        var settings = new RunSettings { Threads = 4, Warmup = TimeSpan.FromMilliseconds(200), Duration = TimeSpan.FromSeconds(runs > 1 ? 10 : 2) };
        var records = new RecordSet(workload.ValueBytes);

        for (int run = 1; run <= runs; run++)
        {
            using var directory = new TempDirectory();
            var options = new StoreOptions { Directory = directory.Path };
            var acknowledged = new Dictionary<long, ulong>();
            WorkloadResult result;
            using (IKeyValueStore store = StoreCatalog.Open(LiteDbRow.DirectName, options))
            {
                records.Load(store, Records);
                result = WorkloadRunner.Run(store, workload, settings with { RandomStream = settings.RandomStream + run }, acknowledged);
            }

            VerificationResult reread;
            using (IKeyValueStore reopened = StoreCatalog.Open(LiteDbRow.DirectName, options with { Access = StoreAccess.ReadOnly }))
            {
                IEnumerable<long> indexes = Enumerable.Range(0, (int)Records).Select(index => (long)index).Union(acknowledged.Keys);
                reread = records.Verify(key => reopened.Get(key), indexes, index => acknowledged.GetValueOrDefault(index));
            }

            output.WriteLine(
                $"{mix} run {run} of {runs}: {result.OperationsPerSecond:N0} ops/s, {result.CheckedReads:N0} reads " +
                    $"checked, {result.WrongReads} wrong, {result.Errors} errors ({result.FirstError ?? "none"}); " +
                    $"reopened: {reread.Checked:N0} records read back, {reread.Missing} missing, {reread.Wrong} " +
                    $"wrong.");
            Assert.True(result.Succeeded, $"{mix} run {run}: {result.Failure}");
            Assert.True(result.CheckedReads > 0, $"{mix} run {run} checked no read.");
            Assert.True(
                reread.Ok,
                $"{mix} run {run}: after reopening, {reread.Missing} records missing and {reread.Wrong} wrong of " +
                    $"{reread.Checked}, the first at index {reread.FirstBadIndex}.");
        }
    }

    private static int RunsFromEnvironment()
    {
        string? value = Environment.GetEnvironmentVariable(RunsVariable);
        return value is null ? 1 : int.Parse(value, NumberStyles.None, CultureInfo.InvariantCulture);
    }
}
