using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// The process a crash round kills, or whose server it kills (<c>kvbench crash-writer</c>): it writes a named worker's
/// records one <see cref="IKeyValueStore.Put"/> each, in order, and prints <c>ack N T</c> once record N is acknowledged,
/// which for a row that holds writes in memory until <see cref="IKeyValueStore.Flush"/> (FASTER) is after that Flush
/// returns; T is the <see cref="Stopwatch"/> timestamp of the acknowledgement (<c>CLOCK_MONOTONIC</c> on Linux, one clock
/// for every process of the machine), so a round can say how long before a kill a lost write was acknowledged. It never
/// stops by itself: it is killed, or its store fails under it.
/// </summary>
public static class CrashWriter
{
    /// <summary>The hidden command that runs it.</summary>
    public const string CommandName = "crash-writer";

    /// <summary>The prefix of an acknowledgement line; the record's index and the acknowledgement's timestamp follow.</summary>
    public const string AckPrefix = "ack ";

    /// <summary>
    /// The option that acknowledges each record when Put returns even on a row that needs a Flush: the control that
    /// shows a crash round can see a loss.
    /// </summary>
    public const string AckBeforeFlushOption = "--ack-before-flush";

    /// <summary>The command line that starts a writer of <paramref name="workerName"/>'s records.</summary>
    /// <param name="store">The row.</param>
    /// <param name="directory">The store's directory (for a server row, what names its store on the server).</param>
    /// <param name="durability">The tier the writer opens the store at.</param>
    /// <param name="workerName">Whose numbered records to write.</param>
    /// <param name="acknowledgeBeforeFlush">See <see cref="AckBeforeFlushOption"/>.</param>
    /// <param name="endpoint">A server row's server, or <see langword="null"/> for the row's default.</param>
    public static IReadOnlyList<string> Arguments(
        string store, string directory, Durability durability, string workerName, bool acknowledgeBeforeFlush = false,
        string? endpoint = null) =>
    [
        CommandName, "--store", store, "--dir", directory, "--durability", durability.ToString(), "--name", workerName,
        .. acknowledgeBeforeFlush ? [AckBeforeFlushOption] : Array.Empty<string>(),
        .. endpoint is null ? Array.Empty<string>() : ["--endpoint", endpoint],
    ];

    /// <summary>Writes and acknowledges records until the process is killed, or until <paramref name="maxRecords"/>.</summary>
    public static void Run(
        StoreOptions options, string store, string workerName, TextWriter acknowledgements,
        bool acknowledgeBeforeFlush = false, long maxRecords = long.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(acknowledgements);
        using IKeyValueStore opened = StoreCatalog.Open(store, options);
        bool flushEach = !opened.Capabilities.WritesSurviveKillBeforeFlush && !acknowledgeBeforeFlush;
        var records = WorkerRecords.For(workerName);
        for (long index = 0; index < maxRecords; index++)
        {
            opened.Put(records.Key(index), records.Value(index));
            if (flushEach)
            {
                opened.Flush();
            }

            acknowledgements.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{AckPrefix}{index} {Stopwatch.GetTimestamp()}"));
            acknowledgements.Flush();
        }
    }

    /// <summary>The options a writer opens <paramref name="directory"/> with: <paramref name="endpoint"/>'s server for a server row.</summary>
    public static StoreOptions Options(string directory, Durability durability, string? endpoint = null)
    {
        var options = new StoreOptions { Directory = directory, Durability = durability };
        return endpoint is null ? options : new ServerStoreOptions(options) { Endpoint = endpoint };
    }

    /// <summary>The timestamp of an acknowledgement line, or <see langword="null"/> when <paramref name="line"/> is not one.</summary>
    internal static long? AcknowledgedAt(string line) =>
        line.StartsWith(AckPrefix, StringComparison.Ordinal) && line.Split(' ') is [_, _, string timestamp]
            && long.TryParse(timestamp, NumberStyles.None, CultureInfo.InvariantCulture, out long at)
            ? at
            : null;
}
