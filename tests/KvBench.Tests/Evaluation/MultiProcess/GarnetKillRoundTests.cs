using System.Collections.Concurrent;
using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;

using StackExchange.Redis;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// What Garnet's acknowledged writes survive: its server killed with SIGKILL while writers put records into it, then
/// started again on the same directory with <c>--recover</c> (which KvBench's Garnet always starts with), and after
/// every restart every record a writer saw acknowledged so far read back. The server is started here, not by the row's
/// shared host, because a round restarts it on the directory it was killed in.
/// </summary>
/// <remarks>
/// Garnet (2.2.8, and 2.2.11 as well) loses acknowledged writes here, and the cause is its own
/// (docs/findings/garnet-kill-rounds.md): a kill in the middle of a MULTI/EXEC (a Put is one) leaves the transaction's
/// start in the append-only file without its commit; Garnet numbers its sessions from the start in every process, and
/// once a later process's session of the same number runs a transaction, every later recovery's replay of the file
/// stops there ("No nested transactions expected"), logs the error and serves what it replayed: every write the file
/// holds past that point is gone, acknowledged or not. No Garnet option prevents it. So the rounds are a measured
/// finding, run both ways: as the row runs Garnet, they report what was lost and assert what holds (a restart whose
/// recovery Garnet did not report failed loses nothing acknowledged; nothing is torn); with a checkpoint (SAVE) taken
/// after each recovery, which leaves the cut transaction out of what the next recovery replays, they assert that
/// nothing acknowledged is lost at all.
/// </remarks>
[Trait("Category", "Servers")]
public sealed class GarnetKillRoundTests(ITestOutputHelper output)
{
    private const int Writers = 4;

    /// <summary>Records past the last acknowledged one that are checked for torn bytes: more than one writer can have in flight.</summary>
    private const int UnacknowledgedChecked = 16;

    private static readonly TimeSpan s_maxKillDelay = TimeSpan.FromMilliseconds(1000);

    /// <summary>Each tier the row offers, as the row runs Garnet and with a checkpoint after each recovery.</summary>
    public static TheoryData<Durability, bool> OfferedTiers
    {
        get
        {
            var data = new TheoryData<Durability, bool>();
            foreach (Durability durability in Enum.GetValues<Durability>().Where(durability =>
                StoreCatalog.DeclaredCapabilities(GarnetRow.RowName).Durability.Offers(durability)))
            {
                data.Add(durability, false);
                data.Add(durability, true);
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(OfferedTiers))]
    public async Task Nothing_acknowledged_is_lost_but_by_a_recovery_Garnet_reports_failed(Durability durability, bool checkpointAfterRecovery)
    {
        var row = (ServerRow)StoreCatalog.Row(GarnetRow.RowName);
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
        List<Restart> restarts = [];
        try
        {
            for (int round = 0; round <= rounds; round++)
            {
                await using var server = new KillableServer(row, dataDirectory, tiers);
                await server.StartAsync();
                if (round > 0)
                {
                    // Every round's writes so far, after every kill and recovery since they were acknowledged.
                    using IKeyValueStore recovered = StoreCatalog.Open(row.Name, new ServerStoreOptions(options) { Endpoint = server.Endpoint });
                    long lost = 0;
                    long torn = 0;
                    foreach ((RecordSet records, long acknowledged) in written)
                    {
                        (long missing, long wrong) = Check(recovered, records, acknowledged);
                        lost += missing;
                        torn += wrong;
                    }

                    restarts.Add(new(round, written.Sum(writer => writer.Acknowledged), lost, torn, server.RecoveryFailure));
                }

                if (round == rounds)
                {
                    break;
                }

                if (round > 0 && checkpointAfterRecovery)
                {
                    server.Checkpoint();
                }

                written.AddRange(await WriteUntilKilledAsync(row, server, options, round, random));
            }
        }
        finally
        {
            Directory.Delete(dataDirectory, recursive: true);
        }

        long total = written.Sum(writer => writer.Acknowledged);
        Restart last = restarts[^1];
        string how = checkpointAfterRecovery ? "a checkpoint after each recovery" : "as the row runs it";
        output.WriteLine(
            string.Create(
                CultureInfo.InvariantCulture,
                $"{row.Name} {durability}, {how}: {rounds} kill -9 rounds, {Writers} writers, {total} acknowledged, " +
                    $"{last.Lost} lost, {last.Torn} torn."));
        output.WriteLine("");
        output.WriteLine("Restart | Acknowledged before it | Lost | Torn | Garnet's recovery |");
        output.WriteLine("---|---|---|---|---|");
        foreach (Restart restart in restarts)
        {
            output.WriteLine(
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"{restart.Round} | {restart.Acknowledged:N0} | {restart.Lost:N0} | {restart.Torn:N0} | " +
                        $"{restart.RecoveryFailure ?? "no error logged"} |"));
        }

        Assert.True(total >= rounds * Writers, $"Only {total} records were acknowledged in {rounds} rounds: the writers hardly wrote before the kills.");
        Assert.All(restarts, restart => Assert.Equal(0, restart.Torn));
        if (checkpointAfterRecovery)
        {
            Assert.All(restarts, restart => Assert.Null(restart.RecoveryFailure));
            Assert.All(restarts, restart => Assert.Equal(0, restart.Lost));
        }
        else
        {
            Assert.All(restarts.Where(restart => restart.RecoveryFailure is null), restart => Assert.Equal(0, restart.Lost));
        }
    }

    /// <summary>What one restart read back: everything acknowledged before it, and the error its recovery logged, if any.</summary>
    private sealed record Restart(int Round, long Acknowledged, long Lost, long Torn, string? RecoveryFailure);

    /// <summary>
    /// Starts <see cref="Writers"/> threads that put their own records one at a time, kills the server at a random moment
    /// after every writer's first acknowledgement, and returns what each saw acknowledged.
    /// </summary>
    private static async Task<List<(RecordSet Records, long Acknowledged)>> WriteUntilKilledAsync(
        ServerRow row, KillableServer server, StoreOptions options, int round, Random random)
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
        /// <summary>How Garnet's console logger tags a line at level Error, as its recovery logs a replay it gave up.</summary>
        private const string ErrorTag = " fail: ";

        private readonly ConcurrentQueue<string> _errors = new();
        private ProcessRowHost? _process;

        public string Endpoint { get; } = $"127.0.0.1:{LoopbackPorts.Free()}";

        /// <summary>
        /// The first error the server logged, without its stack trace, or <see langword="null"/>. Read once the server
        /// answers: Garnet recovers before it listens, so its recovery's errors are written by then.
        /// </summary>
        public string? RecoveryFailure => _errors.TryPeek(out string? line) ? line : null;

        public async Task StartAsync()
        {
            int port = int.Parse(Endpoint.AsSpan(Endpoint.LastIndexOf(':') + 1), CultureInfo.InvariantCulture);
            _process = new ProcessRowHost(
                row.Name,
                row.ServerStartInfo(dataDirectory, port, tiers),
                ready => row.AnswersAsync(Endpoint, ready),
                row.ReadyTimeout,
                outputLine: Keep);
            await _process.StartAsync();
        }

        /// <summary>
        /// A checkpoint (SAVE): Garnet writes its store's state and truncates the append-only file before it, so the next
        /// recovery replays only what was appended after it.
        /// </summary>
        public void Checkpoint()
        {
            using ConnectionMultiplexer connection = RedisStore.Connect(Endpoint);
            RedisResult reply = connection.GetServer(connection.GetEndPoints()[0]).Execute("SAVE");
            Assert.Equal("OK", reply.ToString());
        }

        public void Kill()
        {
            int pid = Assert.NotNull(_process?.ProcessId);
            Assert.True(Signals.Send(pid, Signals.ForceKill), $"SIGKILL did not reach the server's process {pid}.");
            Assert.True(
                Signals.WaitUntilGoneAsync(pid, TimeSpan.FromSeconds(30)).GetAwaiter().GetResult(),
                $"The server's process {pid} outlived SIGKILL by 30 s.");
        }

        public async ValueTask DisposeAsync()
        {
            if (_process is not null)
            {
                await _process.DisposeAsync();
            }
        }

        private void Keep(string line)
        {
            int error = line.IndexOf(ErrorTag, StringComparison.Ordinal);
            if (error >= 0)
            {
                // The logger writes the exception's stack trace on the same line, after its message.
                int trace = line.IndexOf("   at ", error, StringComparison.Ordinal);
                _errors.Enqueue((trace < 0 ? line[error..] : line[error..trace]).Trim());
            }
        }
    }
}
