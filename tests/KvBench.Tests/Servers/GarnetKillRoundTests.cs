using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Servers;

using Xunit.Abstractions;

namespace KvBench.Tests.Servers;

/// <summary>
/// What Garnet's acknowledged writes survive: its server killed with SIGKILL while writers put records into it, then
/// started again on the same directory with <c>--recover</c> (which KvBench's Garnet always starts with), and every
/// record a writer saw acknowledged read back. Each tier the row offers must lose nothing acknowledged to a killed
/// process (that is what even Buffered promises). The server is started here, not by the row's shared host, because a
/// round restarts it on the directory it was killed in.
/// </summary>
[Trait("Category", "Servers")]
public sealed class GarnetKillRoundTests(ITestOutputHelper output)
{
    private const int Writers = 4;

    /// <summary>Records past the last acknowledged one that are checked for torn bytes: more than one writer can have in flight.</summary>
    private const int UnacknowledgedChecked = 16;

    private static readonly TimeSpan s_maxKillDelay = TimeSpan.FromMilliseconds(1000);

    public static TheoryData<Durability> OfferedTiers =>
        new(Enum.GetValues<Durability>().Where(durability => StoreCatalog.DeclaredCapabilities(StoreNames.Garnet).Durability.Offers(durability)));

    /// <remarks>
    /// Skipped until Garnet keeps what it acknowledged across repeated kills: on 2026-11-25 (2.2.8, RandomAccess device)
    /// 3 rounds lost nothing twice (0 of 1,437 and 0 of 1,116 acknowledged), and 5 rounds lost 1,300 of 1,660; on the
    /// FileStream device 3 rounds lost 32 of 98 once and 0 of 150 once. Run it with the Skip removed, and
    /// KVBENCH_CRASH_ROUNDS for the number of rounds, to measure again.
    /// </remarks>
    [Theory(Skip = "Garnet 2.2.8 lost acknowledged writes across repeated SIGKILL and --recover rounds (5 rounds: 1,300 of 1,660 lost); see the remarks")]
    [MemberData(nameof(OfferedTiers))]
    public async Task Nothing_acknowledged_is_lost_when_the_server_is_killed_and_restarted_with_recover(Durability durability)
    {
        var row = (ServerRow)StoreCatalog.Row(StoreNames.Garnet);
        Assert.True(row.IsAvailable, row.UnavailableReason);
        int rounds = CrashRounds.RoundsFromEnvironment(fallback: 3);
        DurabilityTiers tiers = row.ServerTiers.First(tiers => tiers.Offers(durability));
        await row.Install.EnsureInstalledAsync(row.Name);
        string dataDirectory = ServerDirectories.NewDataDirectory(row.Name, tiers);
        row.InitializeData(dataDirectory, tiers);
        using var store = new TempDirectory();
        var options = new StoreOptions { Directory = store.Path, Durability = durability };
        var random = new Random(25);
        List<(RecordSet Records, long Acknowledged)> written = [];
        long lost = 0;
        long torn = 0;
        try
        {
            for (int round = 0; round <= rounds; round++)
            {
                await using var server = new KillableServer(row, dataDirectory, tiers);
                await server.StartAsync();
                if (round == rounds)
                {
                    // Every round's writes, after every kill and recovery since they were acknowledged.
                    using IKeyValueStore recovered = StoreCatalog.Open(row.Name, new ServerStoreOptions(options) { Endpoint = server.Endpoint });
                    foreach ((RecordSet records, long acknowledged) in written)
                    {
                        (long missing, long wrong) = Check(recovered, records, acknowledged);
                        lost += missing;
                        torn += wrong;
                    }

                    break;
                }

                written.AddRange(await WriteUntilKilledAsync(row, server, options, round, random));
            }
        }
        finally
        {
            Directory.Delete(dataDirectory, recursive: true);
        }

        long total = written.Sum(writer => writer.Acknowledged);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{row.Name} {durability}: {rounds} kill -9 rounds, {Writers} writers, {total} acknowledged, {lost} lost, {torn} torn."));
        Assert.True(total >= rounds * Writers, $"Only {total} records were acknowledged in {rounds} rounds: the writers hardly wrote before the kills.");
        Assert.Equal(0, lost);
        Assert.Equal(0, torn);
    }

    /// <summary>
    /// Starts <see cref="Writers"/> threads that put their own records one at a time, kills the server at a random moment
    /// after every writer's first acknowledgement, and returns what each saw acknowledged.
    /// </summary>
    private static async Task<List<(RecordSet Records, long Acknowledged)>> WriteUntilKilledAsync(ServerRow row, KillableServer server, StoreOptions options, int round, Random random)
    {
        using IKeyValueStore store = StoreCatalog.Open(row.Name, new ServerStoreOptions(options) { Endpoint = server.Endpoint });
        RecordSet[] records = [.. Enumerable.Range(0, Writers).Select(writer => WorkerRecords.For($"kill-{round}-{writer}"))];
        long[] acknowledged = new long[Writers];
        using var allAcknowledged = new CountdownEvent(Writers);
        Task[] writers = [.. Enumerable.Range(0, Writers).Select(writer => Task.Factory.StartNew(() =>
        {
            try
            {
                for (long index = 0; ; index++)
                {
                    store.Put(records[writer].Key(index), records[writer].Value(index));
                    if (Interlocked.Increment(ref acknowledged[writer]) == 1)
                    {
                        allAcknowledged.Signal();
                    }
                }
            }
            catch (KeyValueStoreException)
            {
                // The server is gone: this writer's last Put was not acknowledged.
            }
        }, TaskCreationOptions.LongRunning))];

        Assert.True(allAcknowledged.Wait(TimeSpan.FromSeconds(60)), "Not every writer saw a Put acknowledged within 60 s.");
        await Task.Delay(random.NextDouble() * s_maxKillDelay);
        server.Kill();
        await Task.WhenAll(writers).WaitAsync(TimeSpan.FromSeconds(60));
        return [.. records.Select((set, writer) => (set, Volatile.Read(ref acknowledged[writer])))];
    }

    /// <summary>Acknowledged records that are missing or wrong, and unacknowledged ones that came back with other bytes.</summary>
    private static (long Lost, long Torn) Check(IKeyValueStore store, RecordSet records, long acknowledged)
    {
        long lost = 0;
        long torn = 0;
        for (long index = 0; index < acknowledged + UnacknowledgedChecked; index++)
        {
            byte[]? value = store.Get(records.Key(index));
            bool exact = value is not null && value.AsSpan().SequenceEqual(records.Value(index));
            if (index < acknowledged && !exact)
            {
                lost++;
            }
            else if (index >= acknowledged && value is not null && !exact)
            {
                torn++;
            }
        }

        return (lost, torn);
    }

    /// <summary>The row's server on a directory that outlives it, on a free loopback port, killed with SIGKILL when told.</summary>
    private sealed class KillableServer(ServerRow row, string dataDirectory, DurabilityTiers tiers) : IAsyncDisposable
    {
        private ProcessRowHost? _process;

        public string Endpoint { get; } = $"127.0.0.1:{LoopbackPorts.Free()}";

        public async Task StartAsync()
        {
            int port = int.Parse(Endpoint.AsSpan(Endpoint.LastIndexOf(':') + 1), CultureInfo.InvariantCulture);
            _process = new ProcessRowHost(row.Name, row.ServerStartInfo(dataDirectory, port, tiers), ready => row.AnswersAsync(Endpoint, ready), row.ReadyTimeout);
            await _process.StartAsync();
        }

        public void Kill()
        {
            int pid = Assert.NotNull(_process?.ProcessId);
            Assert.True(Signals.Send(pid, Signals.ForceKill), $"SIGKILL did not reach the server's process {pid}.");
            Assert.True(Signals.WaitUntilGoneAsync(pid, TimeSpan.FromSeconds(30)).GetAwaiter().GetResult(), $"The server's process {pid} outlived SIGKILL by 30 s.");
        }

        public async ValueTask DisposeAsync()
        {
            if (_process is not null)
            {
                await _process.DisposeAsync();
            }
        }
    }
}
