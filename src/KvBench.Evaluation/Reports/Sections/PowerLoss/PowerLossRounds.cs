using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// What a row's acknowledged writes survive when the machine loses power: rounds of a crash writer
/// (<see cref="CrashWriter"/>) whose store directory sits on the power-cut file system (<see cref="PowerCutMount"/>);
/// at a random moment the writer is killed and the power cut, so what it wrote and did not flush is gone (all of it, or
/// all but a random prefix with the next write torn at a sector); the store is reopened on what the backing folder
/// kept, and every acknowledged record is looked for. Results are <see cref="CrashRoundsResult"/>s whose
/// <see cref="CrashRoundsResult.Killed"/> is <see cref="CrashKill.Power"/>.
/// </summary>
public static class PowerLossRounds
{
    /// <summary>The environment variable that sets how many rounds the tests and the ADR section run per row and tier.</summary>
    public const string RoundsVariable = "KVBENCH_POWER_ROUNDS";

    /// <summary>The environment variable that, set to 0, makes every cut drop all pending writes (no kept prefix, no torn write).</summary>
    public const string TornCutsVariable = "KVBENCH_POWER_TORN";

    /// <summary>Whether <see cref="TornCutsVariable"/> leaves torn cuts on (its default).</summary>
    public static bool TornCutsFromEnvironment() => Environment.GetEnvironmentVariable(TornCutsVariable) != "0";

    /// <summary>The longest a cut waits after the writer's first acknowledgement; the moment is uniform below it.</summary>
    private static readonly TimeSpan s_maxCutDelay = TimeSpan.FromMilliseconds(250);

    private static readonly TimeSpan s_firstAckTimeout = TimeSpan.FromSeconds(60);

    /// <summary>How long a writer whose server was killed has to fail and exit before it is killed too.</summary>
    private static readonly TimeSpan s_writerExitTimeout = TimeSpan.FromSeconds(10);

    /// <summary>The most sectors of the first dropped write a cut keeps: writes are torn within their first 4 KiB.</summary>
    private const int MaxTornSectors = 8;

    /// <summary>The embedded rows available here that keep files, with every tier each offers, in table order.</summary>
    public static IReadOnlyList<(string Store, Durability Durability)> Tiers() =>
    [
        .. from name in StoreCatalog.AvailableNames
           let offered = StoreCatalog.DeclaredCapabilities(name).Durability
           where offered != DurabilityTiers.None
           from durability in Enum.GetValues<Durability>()
           where offered.Offers(durability)
           select (name, durability),
    ];

    /// <summary>The rounds <see cref="RoundsVariable"/> asks for, or <paramref name="fallback"/> when it is not set.</summary>
    /// <exception cref="InvalidOperationException">The variable is set to something other than a positive whole number.</exception>
    public static int RoundsFromEnvironment(int fallback)
    {
        string? value = Environment.GetEnvironmentVariable(RoundsVariable);
        if (string.IsNullOrWhiteSpace(value))
        {
            return fallback;
        }

        return int.TryParse(value, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int rounds) && rounds > 0
            ? rounds
            : throw new InvalidOperationException($"{RoundsVariable} is '{value}'; it must be a positive whole number of rounds.");
    }

    /// <summary>Runs <paramref name="rounds"/> power cuts under one row and tier whose store lives in <paramref name="directory"/>.</summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="store">An embedded row.</param>
    /// <param name="durability">The tier the writers and the reopens use.</param>
    /// <param name="directory">The store's directory (the backing folder of the mounts); rounds accumulate in it.</param>
    /// <param name="rounds">Power cuts.</param>
    /// <param name="cutMoments">Picks the moments of the cuts and what of the pending writes each keeps, so a run can be repeated.</param>
    /// <param name="acknowledgeBeforeFlush">Acknowledge when Put returns even where the row needs a Flush: a control that must lose records.</param>
    /// <param name="tornCuts">
    /// Whether a cut keeps a random prefix of the pending writes and tears the next one; otherwise it drops every pending
    /// write, which tells a loss from a missing flush apart from one that only a torn write causes.
    /// </param>
    /// <exception cref="InvalidOperationException">The file system cannot run here; the message says why in one line.</exception>
    public static async Task<CrashRoundsResult> RunAsync(
        KvBenchCli cli,
        string store,
        Durability durability,
        string directory,
        int rounds,
        int cutMoments,
        bool acknowledgeBeforeFlush = false,
        bool tornCuts = true)
    {
        CheckCanRun(cli, rounds);
        var random = new Random(cutMoments);
        string scratch = Path.Combine(Path.GetTempPath(), "kvbench-power", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        var tally = new Tally();
        try
        {
            for (int round = 0; round < rounds; round++)
            {
                string workerName = $"power-{durability}-{round}";
                long roundAcknowledged;
                await using (PowerCutMount mount = await PowerCutMount.MountAsync(directory, scratch).ConfigureAwait(false))
                {
                    roundAcknowledged = await WriteUntilCutAsync(
                        cli,
                        mount,
                        CrashWriter.Arguments(store, mount.MountPoint, durability, workerName, acknowledgeBeforeFlush),
                        writer => writer.KillAsync(),
                        random,
                        tornCuts).ConfigureAwait(false);
                }

                tally.Check(round, workerName, roundAcknowledged, () => StoreCatalog.Open(store, CrashWriter.Options(directory, durability)));
            }
        }
        finally
        {
            DeleteScratch(scratch);
        }

        return tally.Result(store, durability, rounds);
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> power cuts under a one-process server row's own server (<see cref="PrivateServer"/>)
    /// whose data directory is on the power-cut file system. The server is initialised and started on the mount, and
    /// what it wrote so far made durable (a server set up and synced before the rounds); in each round a writer puts
    /// records through it, the server's process tree is killed with SIGKILL at a random moment and the power cut; the
    /// file system is mounted again over what the backing folder kept, at the same place, the server is started again on
    /// the same data directory, and every acknowledged record is read back through it. A server that does not start
    /// again is a reopen failure, and ends the rounds: the next ones would find no server.
    /// </summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="store">A one-process server row.</param>
    /// <param name="durability">The tier the server is set up for, and the writers and the reads use.</param>
    /// <param name="directory">The backing folder: what survives the cuts, the server's data directory included.</param>
    /// <param name="rounds">Power cuts.</param>
    /// <param name="cutMoments">Picks the moments of the cuts and what of the pending writes each keeps, so a run can be repeated.</param>
    /// <param name="tornCuts">As for <see cref="RunAsync"/>.</param>
    /// <exception cref="InvalidOperationException">The file system cannot run here, or the row is pointed at a user's own server.</exception>
    /// <exception cref="NotSupportedException">The row runs a cluster.</exception>
    /// <exception cref="StoreUnavailableException">The server cannot be installed or did not start the first time.</exception>
    public static async Task<CrashRoundsResult> RunOnServerAsync(
        KvBenchCli cli,
        string store,
        Durability durability,
        string directory,
        int rounds,
        int cutMoments,
        bool tornCuts = true)
    {
        CheckCanRun(cli, rounds);
        var random = new Random(cutMoments);

        // Short names: PostgreSQL puts its socket in its data directory, and a socket's path has at most 107 bytes.
        string scratch = Path.Combine(Path.GetTempPath(), "kvbench-power", Guid.NewGuid().ToString("N")[..12]);

        // The same mount point every round, so the server finds its data directory where it left it, as after a reboot.
        string disk = Path.Combine(scratch, "disk");
        Directory.CreateDirectory(directory);
        var tally = new Tally();
        int run = 0;
        PowerCutMount? mount = await PowerCutMount.MountAsync(directory, scratch, disk).ConfigureAwait(false);
        PrivateServer? server = null;
        try
        {
            server = await PrivateServer.StartAsync(store, durability, Path.Combine(disk, "srv")).ConfigureAwait(false);
            mount.Sync();
            for (; run < rounds; run++)
            {
                string workerName = $"power-{durability}-{run}";
                PrivateServer victim = server;
                long roundAcknowledged = await WriteUntilCutAsync(
                    cli,
                    mount,
                    CrashWriter.Arguments(store, directory, durability, workerName, endpoint: victim.Endpoint),
                    async writer =>
                    {
                        await victim.KillAsync().ConfigureAwait(false);

                        // The writer's next call fails once the server is gone; a writer still waiting is killed by the wait.
                        await writer.WaitForExitAsync(s_writerExitTimeout).ConfigureAwait(false);
                    },
                    random,
                    tornCuts).ConfigureAwait(false);
                await mount.DisposeAsync().ConfigureAwait(false);
                mount = null;
                mount = await PowerCutMount.MountAsync(directory, scratch, disk).ConfigureAwait(false);
                try
                {
                    await server.RestartAsync().ConfigureAwait(false);
                }
                catch (StoreUnavailableException e)
                {
                    tally.Failed(run, roundAcknowledged, $"the server did not start again: {e.Message}");
                    run++;
                    break;
                }

                string endpoint = server.Endpoint;
                tally.Check(run, workerName, roundAcknowledged, () => StoreCatalog.Open(store, CrashWriter.Options(directory, durability, endpoint)));
            }
        }
        finally
        {
            await StopAsync(server, mount).ConfigureAwait(false);
            DeleteScratch(scratch);
        }

        return tally.Result(store, durability, run);
    }

    private static void CheckCanRun(KvBenchCli cli, int rounds)
    {
        ArgumentNullException.ThrowIfNull(cli);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rounds);
        if (PowerCutMount.Unavailable() is { } reason)
        {
            throw new InvalidOperationException(reason);
        }
    }

    /// <summary>Stops the server and deletes its data directory while the mount is live, then unmounts.</summary>
    private static async Task StopAsync(PrivateServer? server, PowerCutMount? mount)
    {
        try
        {
            if (server is not null)
            {
                await server.DisposeAsync().ConfigureAwait(false);
            }
        }
        catch (IOException)
        {
            // A mount already cut refuses the deletion; the backing folder holds the data, and its owner deletes it.
        }
        finally
        {
            if (mount is not null)
            {
                await mount.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    /// <summary>What the rounds acknowledged, lost, tore and could not reopen, round after round.</summary>
    private sealed class Tally
    {
        private readonly List<string> _reopenFailures = [];
        private long _acknowledged;
        private long _lost;
        private long _torn;

        /// <summary>Reopens the store after a round's cut and looks for every record the round's writer acknowledged.</summary>
        public void Check(int round, string workerName, long acknowledged, Func<IKeyValueStore> reopen)
        {
            _acknowledged += acknowledged;
            try
            {
                using IKeyValueStore reopened = reopen();
                CrashCheck check = CrashCheck.Of(reopened, WorkerRecords.For(workerName), acknowledged);
                _lost += check.Lost;
                _torn += check.Torn;
            }
            catch (Exception e) when (e is KeyValueStoreException or IOException or InvalidOperationException)
            {
                _reopenFailures.Add($"round {round}: {e.Message}");
            }
        }

        /// <summary>A round whose store could not be reopened at all.</summary>
        public void Failed(int round, long acknowledged, string why)
        {
            _acknowledged += acknowledged;
            _reopenFailures.Add($"round {round}: {why}");
        }

        public CrashRoundsResult Result(string store, Durability durability, int rounds) =>
            new(store, durability, rounds, _acknowledged, _lost, _torn, _reopenFailures) { Killed = CrashKill.Power };
    }

    private static void DeleteScratch(string scratch)
    {
        try
        {
            Directory.Delete(scratch, recursive: true);
        }
        catch (IOException)
        {
            // A lazily detached mount may still hold a file; the temp cleaner takes the rest.
        }
    }

    /// <summary>
    /// Starts a writer, waits for its first acknowledgement and a random moment more, stops what writes to the mount (the
    /// writer, or its server), cuts the power keeping a random prefix of what was left pending, and returns how many
    /// records the writer acknowledged.
    /// </summary>
    private static async Task<long> WriteUntilCutAsync(
        KvBenchCli cli,
        PowerCutMount mount,
        IReadOnlyList<string> writerArguments,
        Func<CliProcess, Task> stopWritingAsync,
        Random random,
        bool tornCuts)
    {
        await using CliProcess writer = cli.Start(writerArguments);
        string first;
        using (var firstAck = new CancellationTokenSource(s_firstAckTimeout))
        {
            try
            {
                first = await writer.OutputLines.ReadAsync(firstAck.Token).ConfigureAwait(false);
            }
            catch (Exception e) when (e is OperationCanceledException or System.Threading.Channels.ChannelClosedException)
            {
                await writer.KillAsync().ConfigureAwait(false);
                string error = writer.StandardError.Trim();
                throw new InvalidOperationException(
                    $"The writer on the power-cut file system acknowledged nothing within {s_firstAckTimeout.TotalSeconds:0} s. Its error output: {error}", e);
            }
        }

        if (!first.StartsWith(CrashWriter.AckPrefix, StringComparison.Ordinal))
        {
            await writer.KillAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"The writer printed '{first}' instead of an acknowledgement. Its error output: {writer.StandardError.Trim()}");
        }

        await Task.Delay(random.NextDouble() * s_maxCutDelay).ConfigureAwait(false);

        // What writes to the mount dies first so that nothing it does after the cut can flush; a dead process flushes nothing either.
        await stopWritingAsync(writer).ConfigureAwait(false);
        IReadOnlyList<string> rest = await writer.ReadAllOutputLinesAsync().ConfigureAwait(false);
        long pending = mount.Status().Pending;
        long kept = random.NextInt64(0, pending + 1);
        int torn = random.Next(0, MaxTornSectors + 1);
        mount.Cut(tornCuts ? kept : 0, tornCuts ? torn : 0);
        return new[] { first }.Concat(rest).Count(line => CrashWriter.AcknowledgedAt(line) is not null);
    }
}
