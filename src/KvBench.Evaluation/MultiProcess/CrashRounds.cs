using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What a crash round kills.</summary>
public enum CrashKill
{
    /// <summary>The writer process; the store (its files, or its server) stays.</summary>
    Writer,

    /// <summary>The server the writer writes to, its whole process tree; it is started again on its data directory.</summary>
    Server,

    /// <summary>The machine's power: the writer dies and what it did not flush is gone (<see cref="Reports.Sections.PowerLoss.PowerLossRounds"/>).</summary>
    Power,
}

/// <summary>
/// What a row's acknowledged writes survive: rounds of a writer process (<see cref="CrashWriter"/>) killed with SIGKILL
/// at a random moment, or whose server is, the store reopened after each, and every acknowledged record read back.
/// </summary>
/// <param name="Store">The row.</param>
/// <param name="Durability">The tier the writer opened the store at.</param>
/// <param name="Rounds">Rounds run.</param>
/// <param name="Acknowledged">Records acknowledged before the kills, over all rounds.</param>
/// <param name="Lost">Acknowledged records missing after the reopen, or holding other bytes.</param>
/// <param name="Torn">
/// Records written but not acknowledged when the writer was killed that came back with bytes that are neither nothing
/// nor the record.
/// </param>
/// <param name="ReopenFailures">Reopens after a kill that failed: the error of each.</param>
public sealed record CrashRoundsResult(
    string Store, Durability Durability, int Rounds, long Acknowledged, long Lost, long Torn,
    IReadOnlyList<string> ReopenFailures)
{
    /// <summary>Whether nothing acknowledged was lost, nothing torn, and every reopen succeeded.</summary>
    public bool Held => Lost == 0 && Torn == 0 && ReopenFailures.Count == 0;

    /// <summary>The row, the tier and what the rounds lost, tore and failed to reopen, for a failure line.</summary>
    public string Outcome =>
        $"{Store} at {Durability}: {Lost:N0} of {Acknowledged:N0} acknowledged records lost, {Torn:N0} torn, {ReopenFailures.Count} reopens failed";

    /// <summary>What the rounds killed. Default: <see cref="CrashKill.Writer"/>.</summary>
    public CrashKill Killed { get; init; } = CrashKill.Writer;

    /// <summary>
    /// The longest span, over the rounds, from the acknowledgement of a round's first lost record to its kill: how much
    /// of the writes acknowledged before a kill it lost, in time. Zero when nothing was lost.
    /// </summary>
    public TimeSpan LostSpan { get; init; }
}

/// <summary>Runs crash rounds on one row and tier.</summary>
public static class CrashRounds
{
    /// <summary>The environment variable that sets how many rounds the tests and the ADR run per row and tier.</summary>
    public const string RoundsVariable = "KVBENCH_CRASH_ROUNDS";

    /// <summary>The longest a kill waits after the writer's first acknowledgement; the moment is uniform below it.</summary>
    private static readonly TimeSpan s_maxKillDelay = TimeSpan.FromMilliseconds(250);

    private static readonly TimeSpan s_firstAckTimeout = TimeSpan.FromSeconds(60);

    /// <summary>How long a writer whose server was killed has to fail and exit before it is killed too.</summary>
    private static readonly TimeSpan s_writerExitTimeout = TimeSpan.FromSeconds(10);

    /// <summary>The rounds <see cref="RoundsVariable"/> asks for, or <paramref name="fallback"/> when it is not set.</summary>
    /// <exception cref="InvalidOperationException">The variable is set to something other than a positive whole number.</exception>
    public static int RoundsFromEnvironment(int fallback)
    {
        string? value = Environment.GetEnvironmentVariable(RoundsVariable);
        if (string.IsNullOrWhiteSpace(value))
        {
            return fallback;
        }

        return int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int rounds) && rounds > 0
            ? rounds
            : throw new InvalidOperationException($"{RoundsVariable} is '{value}'; it must be a positive whole number of rounds.");
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds on one store in <paramref name="directory"/>, each writer writing records
    /// of its own and killed.
    /// </summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="store">The row.</param>
    /// <param name="durability">The tier the writers and the reopens use.</param>
    /// <param name="directory">The store's directory; rounds accumulate in it.</param>
    /// <param name="rounds">Writers to kill.</param>
    /// <param name="killMoments">Which kill moments: the same number gives the same moments, so a run can be repeated.</param>
    /// <param name="acknowledgeBeforeFlush">Acknowledge when Put returns even where the row needs a Flush: a control that must lose records.</param>
    public static Task<CrashRoundsResult> RunAsync(
        KvBenchCli cli, string store, Durability durability, string directory, int rounds, int killMoments,
        bool acknowledgeBeforeFlush = false)
    {
        ArgumentNullException.ThrowIfNull(cli);
        var victim = new CrashVictim(
            cli,
            store,
            durability,
            CrashKill.Writer,
            workerName => CrashWriter.Arguments(store, directory, durability, workerName, acknowledgeBeforeFlush),
            KillWriterAsync,
            CrashWriter.Options(directory, durability));
        return RunAsync(victim, rounds, killMoments);
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds on the store <paramref name="directory"/> names on <paramref name="server"/>,
    /// each writer killed while the server keeps running: what a client's crash leaves of the writes it was acknowledged.
    /// </summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="server">KvBench's own server for the row and tier.</param>
    /// <param name="directory">Names the store on the server; rounds accumulate in it.</param>
    /// <param name="rounds">Writers to kill.</param>
    /// <param name="killMoments">Which kill moments: the same number gives the same moments, so a run can be repeated.</param>
    public static Task<CrashRoundsResult> RunWriterKillsOnServerAsync(KvBenchCli cli, PrivateServer server, string directory, int rounds, int killMoments)
    {
        ArgumentNullException.ThrowIfNull(server);
        return RunAsync(OnServer(cli, server, directory, CrashKill.Writer, KillWriterAsync), rounds, killMoments);
    }

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds on the store <paramref name="directory"/> names on <paramref name="server"/>:
    /// each writer writes records of its own until the server's process tree is killed with SIGKILL under it; the
    /// server is started again on its data directory, and every acknowledged record is read back through it.
    /// </summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="server">KvBench's own server for the row and tier, which the rounds kill and restart.</param>
    /// <param name="directory">Names the store on the server; rounds accumulate in it.</param>
    /// <param name="rounds">Servers to kill.</param>
    /// <param name="killMoments">Which kill moments: the same number gives the same moments, so a run can be repeated.</param>
    public static Task<CrashRoundsResult> RunOnServerAsync(KvBenchCli cli, PrivateServer server, string directory, int rounds, int killMoments)
    {
        ArgumentNullException.ThrowIfNull(server);
        return RunAsync(
            OnServer(cli, server, directory, CrashKill.Server, async writer =>
            {
                long killedAt = await server.KillAsync().ConfigureAwait(false);

                // The writer's next call fails once its connection is gone; a writer still waiting is killed by the wait.
                await writer.WaitForExitAsync(s_writerExitTimeout).ConfigureAwait(false);
                await server.RestartAsync().ConfigureAwait(false);
                return killedAt;
            }),
            rounds,
            killMoments);
    }

    /// <summary>
    /// Writers of the store <paramref name="directory"/> names on <paramref name="server"/>, at its tier, and the
    /// reopen that reads them back through it.
    /// </summary>
    private static CrashVictim OnServer(KvBenchCli cli, PrivateServer server, string directory, CrashKill killed, Func<CliProcess, Task<long>> killAsync)
    {
        ArgumentNullException.ThrowIfNull(cli);
        string store = server.Row.Name;
        Durability durability = server.Durability;
        return new CrashVictim(
            cli,
            store,
            durability,
            killed,
            workerName => CrashWriter.Arguments(store, directory, durability, workerName, endpoint: server.Endpoint),
            killAsync,
            CrashWriter.Options(directory, durability, server.Endpoint));
    }

    private static async Task<CrashRoundsResult> RunAsync(CrashVictim victim, int rounds, int killMoments)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rounds);
        var random = new Random(killMoments);
        long acknowledged = 0;
        long lost = 0;
        long torn = 0;
        TimeSpan lostSpan = TimeSpan.Zero;
        var reopenFailures = new List<string>();
        for (int round = 0; round < rounds; round++)
        {
            string workerName = $"crash-{victim.Durability}-{round}";
            (IReadOnlyList<long> acknowledgedAt, long killedAt) = await WriteUntilKilledAsync(victim, workerName, random).ConfigureAwait(false);
            acknowledged += acknowledgedAt.Count;
            try
            {
                using IKeyValueStore reopened = StoreCatalog.Open(victim.Store, victim.ReopenOptions);
                CrashCheck check = CrashCheck.Of(reopened, WorkerRecords.For(workerName), acknowledgedAt.Count);
                lost += check.Lost;
                torn += check.Torn;
                if (check.FirstLost is { } first)
                {
                    TimeSpan span = Stopwatch.GetElapsedTime(acknowledgedAt[(int)first], killedAt);
                    lostSpan = span > lostSpan ? span : lostSpan;
                }
            }
            catch (Exception e) when (e is KeyValueStoreException or IOException)
            {
                reopenFailures.Add($"round {round}: {e.Message}");
            }
        }

        return new CrashRoundsResult(victim.Store, victim.Durability, rounds, acknowledged, lost, torn, reopenFailures)
        {
            Killed = victim.Killed,
            LostSpan = lostSpan,
        };
    }

    /// <summary>
    /// Starts a writer, kills it (or its server) at a random moment after its first acknowledgement, and returns the
    /// timestamp of every acknowledgement it printed, in the order of its records, and that of the kill.
    /// </summary>
    private static async Task<(IReadOnlyList<long> AcknowledgedAt, long KilledAt)> WriteUntilKilledAsync(CrashVictim victim, string workerName, Random random)
    {
        await using CliProcess writer = victim.Cli.Start(victim.WriterArguments(workerName));
        string first;
        using (var firstAck = new CancellationTokenSource(s_firstAckTimeout))
        {
            try
            {
                first = await writer.OutputLines.ReadAsync(firstAck.Token).ConfigureAwait(false);
                if (!first.StartsWith(CrashWriter.AckPrefix, StringComparison.Ordinal))
                {
                    throw new InvalidOperationException(
                        $"The crash writer printed '{first}' instead of an acknowledgement. Its error output: {writer.StandardError}");
                }
            }
            catch (Exception e) when (e is OperationCanceledException or System.Threading.Channels.ChannelClosedException)
            {
                await writer.KillAsync().ConfigureAwait(false);
                throw new InvalidOperationException(
                    $"The crash writer acknowledged nothing within {s_firstAckTimeout.TotalSeconds:0} s. Its error " +
                        $"output: {writer.StandardError.Trim()}",
                    e);
            }
        }

        await Task.Delay(random.NextDouble() * s_maxKillDelay).ConfigureAwait(false);
        long killedAt = await victim.KillAsync(writer).ConfigureAwait(false);

        // Every line the writer printed before it died: the first, already read, and the rest still in the pipe.
        IReadOnlyList<string> rest = await writer.ReadAllOutputLinesAsync().ConfigureAwait(false);
        return ([.. new[] { first }.Concat(rest).Select(CrashWriter.AcknowledgedAt).OfType<long>()], killedAt);
    }

    /// <summary>Kills a writer with SIGKILL, and returns when.</summary>
    private static async Task<long> KillWriterAsync(CliProcess writer)
    {
        long killedAt = Stopwatch.GetTimestamp();
        await writer.KillAsync().ConfigureAwait(false);
        return killedAt;
    }

    /// <summary>One row and tier under crash rounds: how its writers start, what a round kills, how the store is reopened after.</summary>
    /// <param name="Cli">The kvbench that runs the writers.</param>
    /// <param name="Store">The row.</param>
    /// <param name="Durability">The tier.</param>
    /// <param name="Killed">What a round kills.</param>
    /// <param name="WriterArguments">The writer's command line for a worker's name.</param>
    /// <param name="KillAsync">Kills the victim, and does what must follow before the store is read back; returns the kill's timestamp.</param>
    /// <param name="ReopenOptions">How the store is opened to read the records back.</param>
    private sealed record CrashVictim(
        KvBenchCli Cli,
        string Store,
        Durability Durability,
        CrashKill Killed,
        Func<string, IReadOnlyList<string>> WriterArguments,
        Func<CliProcess, Task<long>> KillAsync,
        StoreOptions ReopenOptions);
}
