using System.Globalization;

using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// The process a crash round kills (<c>kvbench crash-writer</c>): it writes a named worker's records one
/// <see cref="IKeyValueStore.Put"/> each, in order, and prints <c>ack N</c> once record N is acknowledged, which for a
/// row that holds writes in memory until <see cref="IKeyValueStore.Flush"/> (FASTER) is after that Flush returns. It
/// never stops by itself: it is killed.
/// </summary>
public static class CrashWriter
{
    /// <summary>The hidden command that runs it.</summary>
    public const string CommandName = "crash-writer";

    /// <summary>The prefix of an acknowledgement line; the record's index follows.</summary>
    public const string AckPrefix = "ack ";

    /// <summary>The option that acknowledges each record when Put returns even on a row that needs a Flush: the control that shows a crash round can see a loss.</summary>
    public const string AckBeforeFlushOption = "--ack-before-flush";

    /// <summary>The command line that starts a writer of <paramref name="workerName"/>'s records.</summary>
    public static IReadOnlyList<string> Arguments(string store, string directory, Durability durability, string workerName, bool acknowledgeBeforeFlush = false) =>
        [CommandName, "--store", store, "--dir", directory, "--durability", durability.ToString(), "--name", workerName, .. acknowledgeBeforeFlush ? [AckBeforeFlushOption] : Array.Empty<string>()];

    /// <summary>Writes and acknowledges records until the process is killed, or until <paramref name="maxRecords"/>.</summary>
    public static void Run(string store, string directory, Durability durability, string workerName, TextWriter acknowledgements, bool acknowledgeBeforeFlush = false, long maxRecords = long.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(acknowledgements);
        using IKeyValueStore opened = StoreCatalog.Open(store, new StoreOptions { Directory = directory, Durability = durability });
        bool flushEach = !opened.Capabilities.WritesSurviveKillBeforeFlush && !acknowledgeBeforeFlush;
        var records = WorkerRecords.For(workerName);
        for (long index = 0; index < maxRecords; index++)
        {
            opened.Put(records.Key(index), records.Value(index));
            if (flushEach)
            {
                opened.Flush();
            }

            acknowledgements.WriteLine(AckPrefix + index.ToString(CultureInfo.InvariantCulture));
            acknowledgements.Flush();
        }
    }
}
