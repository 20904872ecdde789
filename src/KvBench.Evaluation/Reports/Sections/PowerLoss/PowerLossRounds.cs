using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;


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
        ArgumentNullException.ThrowIfNull(cli);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rounds);
        if (PowerCutMount.Unavailable() is { } reason)
        {
            throw new InvalidOperationException(reason);
        }

        var random = new Random(cutMoments);
        string scratch = Path.Combine(Path.GetTempPath(), "kvbench-power", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        long acknowledged = 0;
        long lost = 0;
        long torn = 0;
        var reopenFailures = new List<string>();
        try
        {
            for (int round = 0; round < rounds; round++)
            {
                string workerName = $"power-{durability}-{round}";
                long roundAcknowledged;
                await using (PowerCutMount mount = await PowerCutMount.MountAsync(directory, scratch).ConfigureAwait(false))
                {
                    roundAcknowledged = await WriteUntilCutAsync(cli, mount, store, durability, workerName, random, acknowledgeBeforeFlush, tornCuts)
                        .ConfigureAwait(false);
                }

                acknowledged += roundAcknowledged;
                try
                {
                    using IKeyValueStore reopened = StoreCatalog.Open(store, CrashWriter.Options(directory, durability));
                    CrashCheck check = CrashCheck.Of(reopened, WorkerRecords.For(workerName), roundAcknowledged);
                    lost += check.Lost;
                    torn += check.Torn;
                }
                catch (Exception e) when (e is KeyValueStoreException or IOException or InvalidOperationException)
                {
                    reopenFailures.Add($"round {round}: {e.Message}");
                }
            }
        }
        finally
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

        return new CrashRoundsResult(store, durability, rounds, acknowledged, lost, torn, reopenFailures) { Killed = CrashKill.Power };
    }

    /// <summary>
    /// Starts a writer on the mount, waits for its first acknowledgement and a random moment more, kills it, cuts the
    /// power keeping a random prefix of what it left pending, and returns how many records it acknowledged.
    /// </summary>
    private static async Task<long> WriteUntilCutAsync(
        KvBenchCli cli,
        PowerCutMount mount,
        string store,
        Durability durability,
        string workerName,
        Random random,
        bool acknowledgeBeforeFlush,
        bool tornCuts)
    {
        await using CliProcess writer = cli.Start(CrashWriter.Arguments(store, mount.MountPoint, durability, workerName, acknowledgeBeforeFlush));
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

        // The writer dies first so that nothing it does after the cut can flush; a dead process flushes nothing either.
        await writer.KillAsync().ConfigureAwait(false);
        IReadOnlyList<string> rest = await writer.ReadAllOutputLinesAsync().ConfigureAwait(false);
        long pending = mount.Status().Pending;
        long kept = random.NextInt64(0, pending + 1);
        int torn = random.Next(0, MaxTornSectors + 1);
        mount.Cut(tornCuts ? kept : 0, tornCuts ? torn : 0);
        return new[] { first }.Concat(rest).Count(line => CrashWriter.AcknowledgedAt(line) is not null);
    }
}
