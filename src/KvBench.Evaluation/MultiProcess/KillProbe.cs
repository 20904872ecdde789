using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// Whether an acknowledged write that was never flushed survives its process being killed (SIGKILL): the Buffered
/// promise for a store that writes through to the OS at once, and broken by one that holds writes in its own memory
/// until <see cref="IKeyValueStore.Flush"/> (FASTER, until a checkpoint).
/// </summary>
public static class KillProbe
{
    private const string WriterName = "killed";

    /// <summary>Starts a writer that never flushes, kills it once it has acknowledged writes, and reopens the store.</summary>
    /// <returns>Whether the first acknowledged write was there after the kill, with its exact bytes.</returns>
    public static async Task<bool> UnflushedWriteSurvivesKillAsync(KvBenchCli cli, string store, string directory, MultiProcessTimeouts? timeouts = null)
    {
        ArgumentNullException.ThrowIfNull(cli);
        timeouts ??= new MultiProcessTimeouts();
        var options = new WorkerOptions
        {
            Store = store,
            Directory = directory,
            Name = WriterName,
            Peer = "nobody",
            FlushEachWrite = false,
            Pause = TimeSpan.FromMilliseconds(1),
        };
        await using (WorkerProcess writer = WorkerProcess.Start(cli, options))
        {
            // "ready" comes after the first write was acknowledged; the pause lets a few more follow before the kill.
            if (!await writer.WaitForAsync(WorkerMessage.Ready, timeouts.Ready).ConfigureAwait(false))
            {
                WorkerRun run = await writer.FinishAsync(timeouts.Exit).ConfigureAwait(false);
                throw new InvalidOperationException($"The {store} writer for the kill probe never acknowledged a write: {run}");
            }

            await Task.Delay(TimeSpan.FromMilliseconds(200)).ConfigureAwait(false);
        }

        using IKeyValueStore reopened = StoreCatalog.Open(store, new StoreOptions { Directory = directory });
        var records = WorkerRecords.For(WriterName);
        return reopened.Get(records.Key(0)) is { } value && value.AsSpan().SequenceEqual(records.Value(0));
    }
}
