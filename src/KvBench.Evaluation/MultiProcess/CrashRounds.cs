using System.Globalization;

using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// What a row's acknowledged writes survive: rounds of a writer process (<see cref="CrashWriter"/>) killed with SIGKILL
/// at a random moment, the store reopened after each, and every acknowledged record read back.
/// </summary>
/// <param name="Store">The row.</param>
/// <param name="Durability">The tier the writer opened the store at.</param>
/// <param name="Rounds">Rounds run.</param>
/// <param name="Acknowledged">Records acknowledged before the kills, over all rounds.</param>
/// <param name="Lost">Acknowledged records missing after the reopen, or holding other bytes.</param>
/// <param name="Torn">Records written but not acknowledged when the writer was killed that came back with bytes that are neither nothing nor the record.</param>
/// <param name="ReopenFailures">Reopens after a kill that failed: the error of each.</param>
public sealed record CrashRoundsResult(string Store, Durability Durability, int Rounds, long Acknowledged, long Lost, long Torn, IReadOnlyList<string> ReopenFailures)
{
    /// <summary>Whether nothing acknowledged was lost, nothing torn, and every reopen succeeded.</summary>
    public bool Held => Lost == 0 && Torn == 0 && ReopenFailures.Count == 0;
}

/// <summary>Runs crash rounds on one row and tier.</summary>
public static class CrashRounds
{
    /// <summary>The environment variable that sets how many rounds the tests and the ADR run per row and tier.</summary>
    public const string RoundsVariable = "KVBENCH_CRASH_ROUNDS";

    /// <summary>Unacknowledged records looked at after the last acknowledged one for torn writes: more than can be in flight.</summary>
    private const int UnacknowledgedChecked = 64;

    /// <summary>The longest a kill waits after the writer's first acknowledgement; the moment is uniform below it.</summary>
    private static readonly TimeSpan s_maxKillDelay = TimeSpan.FromMilliseconds(250);

    private static readonly TimeSpan s_firstAckTimeout = TimeSpan.FromSeconds(60);

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

    /// <summary>Runs <paramref name="rounds"/> rounds on one store in <paramref name="directory"/>, each writer writing records of its own.</summary>
    /// <param name="cli">The kvbench that runs the writers.</param>
    /// <param name="store">The row.</param>
    /// <param name="durability">The tier the writers and the reopens use.</param>
    /// <param name="directory">The store's directory; rounds accumulate in it.</param>
    /// <param name="rounds">Writers to kill.</param>
    /// <param name="seed">Seeds the kill moments, so a run can be repeated.</param>
    /// <param name="acknowledgeBeforeFlush">Acknowledge when Put returns even where the row needs a Flush: a control that must lose records.</param>
    public static async Task<CrashRoundsResult> RunAsync(KvBenchCli cli, string store, Durability durability, string directory, int rounds, int seed, bool acknowledgeBeforeFlush = false)
    {
        ArgumentNullException.ThrowIfNull(cli);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rounds);
        var random = new Random(seed);
        long acknowledged = 0;
        long lost = 0;
        long torn = 0;
        var reopenFailures = new List<string>();
        for (int round = 0; round < rounds; round++)
        {
            string workerName = $"crash-{durability}-{round}";
            long acked = await WriteUntilKilledAsync(cli, CrashWriter.Arguments(store, directory, durability, workerName, acknowledgeBeforeFlush), random).ConfigureAwait(false);
            acknowledged += acked;
            try
            {
                using IKeyValueStore reopened = StoreCatalog.Open(store, new StoreOptions { Directory = directory, Durability = durability });
                var records = WorkerRecords.For(workerName);
                for (long index = 0; index < acked + UnacknowledgedChecked; index++)
                {
                    byte[]? value = reopened.Get(records.Key(index));
                    bool exact = value is not null && value.AsSpan().SequenceEqual(records.Value(index));
                    if (index < acked && !exact)
                    {
                        lost++;
                    }
                    else if (index >= acked && value is not null && !exact)
                    {
                        torn++;
                    }
                }
            }
            catch (Exception e) when (e is KeyValueStoreException or IOException)
            {
                reopenFailures.Add($"round {round}: {e.Message}");
            }
        }

        return new CrashRoundsResult(store, durability, rounds, acknowledged, lost, torn, reopenFailures);
    }

    /// <summary>Starts a writer, kills it at a random moment after its first acknowledgement, and counts what it acknowledged.</summary>
    private static async Task<long> WriteUntilKilledAsync(KvBenchCli cli, IReadOnlyList<string> arguments, Random random)
    {
        await using CliProcess writer = cli.Start(arguments);
        using (var firstAck = new CancellationTokenSource(s_firstAckTimeout))
        {
            try
            {
                string line = await writer.OutputLines.ReadAsync(firstAck.Token).ConfigureAwait(false);
                if (!line.StartsWith(CrashWriter.AckPrefix, StringComparison.Ordinal))
                {
                    throw new InvalidOperationException($"The crash writer printed '{line}' instead of an acknowledgement. Its error output: {writer.StandardError}");
                }
            }
            catch (Exception e) when (e is OperationCanceledException or System.Threading.Channels.ChannelClosedException)
            {
                await writer.KillAsync().ConfigureAwait(false);
                throw new InvalidOperationException($"The crash writer acknowledged nothing within {s_firstAckTimeout.TotalSeconds:0} s. Its error output: {writer.StandardError.Trim()}", e);
            }
        }

        await Task.Delay(random.NextDouble() * s_maxKillDelay).ConfigureAwait(false);
        await writer.KillAsync().ConfigureAwait(false);

        // Every line the writer printed before it died: the first, already read, and the rest still in the pipe.
        return 1 + (await writer.ReadAllOutputLinesAsync().ConfigureAwait(false)).Count(line => line.StartsWith(CrashWriter.AckPrefix, StringComparison.Ordinal));
    }
}
