using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Tests.Stores.Servers;



namespace KvBench.Tests.Stores.Conformance.Flushes;

/// <summary>
/// What <see cref="DeviceFlushTests"/> checks for the embedded rows, for the server rows: a server's flushes happen in
/// the server, not in the client, so strace follows the server KvBench started for the tier (every process and thread of
/// it: PostgreSQL's backends and WAL writer, Redis' background threads, InnoDB's) while this process overwrites records
/// with changed bytes one Put each; the store is then reopened and read back. A flush is an fsync-family call, or a write
/// through a file descriptor opened <c>O_SYNC</c> or <c>O_DSYNC</c>, which returns only once the device has the data
/// (Garnet's FileStream device, tried for a Synced Garnet, opens its files so and calls no fsync), or a write submitted
/// with <c>io_submit</c> to such a descriptor or with <c>RWF_DSYNC</c>/<c>RWF_SYNC</c> (dqlite's libraft appends its
/// Raft log so, through segments opened O_DIRECT|O_DSYNC, and calls no fsync for it).
/// </summary>
[Trait("Category", "DeviceFlushes")]
[Trait("Category", "Servers")]
[Collection(AloneOnTheServersCollection.Name)]
public sealed partial class ServerDeviceFlushTests(ITestOutputHelper output) : IClassFixture<ServerHostsFixture>
{
    /// <summary>The calls that write through a descriptor, the descriptor their first argument.</summary>
    private const string WriteCalls = "write,writev,pwrite64,pwritev,pwritev2";

    /// <summary>Linux AIO's submission, whose writes name their descriptor inside the control blocks it takes.</summary>
    private const string AioSubmit = "io_submit";

    /// <summary>How many idle windows <see cref="Settle"/> traces at most before it gives up on a server that keeps flushing.</summary>
    private const int IdleWindows = 10;

    private static readonly TimeSpan s_attachTimeout = TimeSpan.FromSeconds(20);

    private static readonly TimeSpan s_idleWindow = TimeSpan.FromSeconds(0.5);

    [Theory]
    [MemberData(nameof(Rows.ServerTiers), MemberType = typeof(Rows))]
    public async Task A_changed_put_is_visible_after_reopen_and_flushes_the_servers_device_only_at_Synced(string name, Durability durability)
    {
        Assert.True(File.Exists(DeviceFlushTests.Strace), $"strace is not at {DeviceFlushTests.Strace}: `apt-get install strace`.");
        var row = (ServerRow)StoreCatalog.Row(name);
        IReadOnlyList<int> servers = (row.Servers.Shared(durability)?.ProcessIds ?? []) is { Count: > 0 } running
            ? running
            : throw new InvalidOperationException(
                $"KvBench runs no {name} server at {durability} here ({row.EndpointVariable} points at a server of " +
                    $"your own?): only its own server can be traced.");
        using var directory = new TempDirectory();

        // The endpoint of the very server traced, given explicitly: a store opened without one takes the row's endpoint
        // variable first when it is set (a user's own server), and would write there, untraced.
        var options = new ServerStoreOptions
        {
            Directory = directory.Path,
            Durability = durability,
            Endpoint = row.Servers.Shared(durability)?.Endpoint ?? throw new InvalidOperationException($"KvBench runs no {name} server at {durability} here."),
        };
        var records = new RecordSet(valueBytes: 128);
        long flushes;
        using (IKeyValueStore store = StoreCatalog.Open(name, options))
        {
            records.Load(store, DeviceFlushTests.Puts, version: 1);
            store.Flush();
            await Settle(name, durability, servers, directory);

            // Version 2 of every record: each Put changes the bytes its key holds.
            ServerFlushes counted = await CountServerFlushes(servers, directory.Combine("strace.txt"), () =>
                records.Load(store, DeviceFlushTests.Puts, batchSize: 1, version: 2));
            flushes = counted.Flushes;
            output.WriteLine(
                $"{name} {durability}: {counted.FlushCalls} fsync-family calls, {counted.SyncWrites} writes through " +
                    $"O_SYNC/O_DSYNC descriptors and {counted.SyncAioWrites} synchronous writes submitted by " +
                    $"io_submit in the server for {DeviceFlushTests.Puts} changed Puts.");

            // Every server writes its log or its replies while it takes 200 Puts: a trace with no call read from it is a
            // trace this test did not understand, never a server that flushed nothing.
            Assert.True(counted.Traced > 0, $"None of the lines strace wrote was read as a call it was asked to trace.");
        }

        double perPut = (double)flushes / DeviceFlushTests.Puts;
        output.WriteLine($"{name} {durability}: {flushes} flushes in the server for {DeviceFlushTests.Puts} changed Puts: {perPut:0.00} per Put.");
        using (IKeyValueStore reopened = StoreCatalog.Open(name, options))
        {
            VerificationResult read = records.Verify(reopened, DeviceFlushTests.Puts, version: 2);
            Assert.True(read.Ok, $"After a reopen {read.Missing} records were missing and {read.Wrong} wrong.");
        }

        if (durability == Durability.Synced || row.Declared.SyncsEveryWrite)
        {
            Assert.True(perPut >= 1, $"{name}'s server acknowledged Synced Puts with {perPut:0.00} device flushes each.");
        }
        else
        {
            Assert.True(perPut <= DeviceFlushTests.MostBufferedFlushesPerPut, $"{name}'s server flushed {perPut:0.00} times per Buffered Put.");
        }
    }

    /// <summary>
    /// Waits until the server no longer flushes by itself: a server that just started, or just took the first version
    /// of the records, flushes its dirty pages in the background for a while (InnoDB's page cleaner made 72 flushes during
    /// 200 Buffered Puts on a loaded machine, none on a quiet one), and those flushes are no write's. Idle windows of
    /// <see cref="s_idleWindow"/> are traced until one holds at most one flush (a once-a-second log flush), at most
    /// <see cref="IdleWindows"/> of them.
    /// </summary>
    private async Task Settle(string name, Durability durability, IReadOnlyList<int> servers, TempDirectory directory)
    {
        for (int window = 1; window <= IdleWindows; window++)
        {
            ServerFlushes idle = await CountServerFlushes(servers, directory.Combine($"idle-{window}.txt"), () => Thread.Sleep(s_idleWindow));
            if (idle.Flushes <= 1)
            {
                return;
            }

            output.WriteLine($"{name} {durability}: {idle.Flushes} flushes in an idle window of {s_idleWindow.TotalSeconds:0.#} s before the Puts; waiting.");
        }

        Assert.Fail($"{name}'s server at {durability} still flushed by itself after {IdleWindows} idle windows of {s_idleWindow.TotalSeconds:0.#} s.");
    }

    /// <summary>
    /// Counts the fsync-family calls of the server's processes and threads (every member of a cluster: each syncs its
    /// own log) while <paramref name="puts"/> runs, and their
    /// writes through descriptors opened <c>O_SYNC</c> or <c>O_DSYNC</c> (a flush each, without a call of its own).
    /// </summary>
    private static async Task<ServerFlushes> CountServerFlushes(IReadOnlyList<int> servers, string trace, Action puts)
    {
        int[] processes = [.. servers.SelectMany(server => (int[])[server, .. ProcessTree.Descendants(server)])];
        // Structures unabbreviated: io_submit's control blocks say which descriptor each write goes to; strings stay empty.
        var startInfo = new ProcessStartInfo(
            DeviceFlushTests.Strace,
            [
                "-f",
                "-e",
                $"trace={DeviceFlushTests.FlushCalls},{WriteCalls},{AioSubmit},{SynchronousDescriptors.Calls}",
                "-e",
                "abbrev=none",
                "-s",
                "0",
                "-o",
                trace])
        {
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (int process in processes)
        {
            startInfo.ArgumentList.Add("-p");
            startInfo.ArgumentList.Add(process.ToString(CultureInfo.InvariantCulture));
        }

        // strace says "Process N attached" on its standard error once it traces process N (and its threads).
        int attached = 0;
        var allAttached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var strace = new Process { StartInfo = startInfo };
        strace.ErrorDataReceived += (_, line) =>
        {
            if (line.Data?.Contains(" attached", StringComparison.Ordinal) == true && Interlocked.Increment(ref attached) == processes.Length)
            {
                allAttached.TrySetResult();
            }
        };
        strace.Start();
        strace.BeginErrorReadLine();
        SynchronousDescriptors descriptors;
        try
        {
            await allAttached.Task.WaitAsync(s_attachTimeout);

            // What is open once strace traces every process; what they open and close from here on is in the trace.
            descriptors = SynchronousDescriptors.Of(processes);
            await Task.Run(puts);
        }
        finally
        {
            // SIGINT: strace detaches from the server, which runs on with its descriptors open, and ends its trace.
            using (Process interrupt = Process.Start("kill", ["-INT", strace.Id.ToString(CultureInfo.InvariantCulture)]))
            {
                await interrupt.WaitForExitAsync();
            }

            await strace.WaitForExitAsync();
        }

        long flushCalls = 0;
        long syncWrites = 0;
        long syncAioWrites = 0;
        long traced = 0;
        HashSet<AioWrite> triedWithoutWaiting = [];
        foreach (string line in File.ReadLines(trace))
        {
            descriptors.Observe(line);
            if (TracedCall.Parse(line) is not { } traceLine)
            {
                continue;
            }

            if (traceLine.Call == AioSubmit)
            {
                traced++;
                foreach (AioWrite write in AioWrite.Parse(line))
                {
                    // libraft tries each append with RWF_NOWAIT first and, refused, submits the same block again from a
                    // thread that may wait: one write to the device, counted once.
                    bool retry = !write.NoWait && triedWithoutWaiting.Remove(write with { NoWait = true });
                    if (write.NoWait)
                    {
                        triedWithoutWaiting.Add(write);
                    }

                    syncAioWrites += !retry && (write.SyncFlag || descriptors.IsSynchronous(traceLine.Thread, write.Descriptor)) ? 1 : 0;
                }
            }
            else if (DeviceFlushTests.FlushCalls.Split(',').Contains(traceLine.Call))
            {
                traced++;
                flushCalls++;
            }
            else if (WriteCalls.Split(',').Contains(traceLine.Call))
            {
                traced++;
                syncWrites += descriptors.IsSynchronous(traceLine.Thread, traceLine.FirstArgument) ? 1 : 0;
            }
        }

        return new ServerFlushes(flushCalls, syncWrites, syncAioWrites, traced);
    }

    /// <summary>One line of <c>strace -f -o</c>: the thread, the call and its first argument.</summary>
    internal sealed record TracedCall(string Thread, string Call, string FirstArgument)
    {
        /// <summary>
        /// Reads "TID call(FD, ...) = R". strace pads the thread id to five columns, so a thread id under 10000 (a
        /// freshly booted machine) is followed by two spaces; a call split around another thread's line resumes as
        /// "TID &lt;... call resumed&gt;" and is not read again.
        /// </summary>
        public static TracedCall? Parse(string line)
        {
            string[] fields = line.Split(' ', 2, StringSplitOptions.TrimEntries);
            if (fields.Length != 2 || fields[1].StartsWith('<'))
            {
                return null;
            }

            int open = fields[1].IndexOf('(', StringComparison.Ordinal);
            return open <= 0 ? null : new TracedCall(fields[0], fields[1][..open], fields[1][(open + 1)..].Split([',', ')'], 2)[0]);
        }
    }

    /// <summary>
    /// One write of an <c>io_submit</c> call: its AIO context, the caller's tag for it, its descriptor and offset, and
    /// whether it was submitted with RWF_NOWAIT and with RWF_DSYNC or RWF_SYNC. A block submitted again with the same
    /// context, tag, descriptor and offset is the same write retried.
    /// </summary>
    internal sealed partial record AioWrite(string Context, string Data, string Descriptor, string Offset, bool NoWait, bool SyncFlag)
    {
        /// <summary>The writes (IOCB_CMD_PWRITE, IOCB_CMD_PWRITEV) of an unabbreviated <c>io_submit</c> line; none from any other line.</summary>
        public static IEnumerable<AioWrite> Parse(string line)
        {
            if (Submit().Match(line) is not { Success: true } submit)
            {
                yield break;
            }

            string context = submit.Groups["context"].Value;
            foreach (string block in line.Split("{aio_data=")[1..])
            {
                if (Write().Match(block) is { Success: true } write && OffsetField().Match(block) is { Success: true } offset)
                {
                    string flags = write.Groups["flags"].Value;
                    yield return new AioWrite(
                        context,
                        block[..block.IndexOf(',', StringComparison.Ordinal)],
                        write.Groups["descriptor"].Value,
                        offset.Groups["offset"].Value,
                        flags.Contains("RWF_NOWAIT", StringComparison.Ordinal),
                        flags.Contains("RWF_DSYNC", StringComparison.Ordinal) || flags.Contains("RWF_SYNC", StringComparison.Ordinal));
                }
            }
        }

        [GeneratedRegex(@"^\d+\s+io_submit\((?<context>0x[0-9a-f]+|\d+), ")]
        private static partial Regex Submit();

        [
            GeneratedRegex(
                @"^[^,]+, (?:aio_key=[^,]+, )?(?:aio_rw_flags=(?<flags>[^,]+), )?aio_lio_opcode=IOCB_CMD_PWRITEV?, " +
                    @"(?:aio_reqprio=[^,]+, )?aio_fildes=(?<descriptor>\d+)")]
        private static partial Regex Write();

        [GeneratedRegex(@"aio_offset=(?<offset>\d+)")]
        private static partial Regex OffsetField();
    }

    /// <summary>
    /// What one trace counted: fsync-family calls, writes through synchronous descriptors, synchronous AIO writes, and
    /// every traced call read.
    /// </summary>
    private sealed record ServerFlushes(long FlushCalls, long SyncWrites, long SyncAioWrites, long Traced)
    {
        public long Flushes => FlushCalls + SyncWrites + SyncAioWrites;
    }
}
