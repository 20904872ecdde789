using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// The <c>Garnet</c> row: Microsoft Research's Redis-compatible server in C# on Tsavorite (the maintained successor of
/// the FASTER engine the <c>FASTER</c> row runs in-process), through the Redis row's client and store
/// (<see cref="RedisStore"/>), run from KvBench's .NET tool manifest. Its append-only file is the durability: every
/// write is committed to it before the reply (<c>--aof --aof-commit-wait</c>), and the storage device decides what a
/// commit is. Buffered is <c>--device-type RandomAccess</c>: .NET's RandomAccess API over files Garnet opens
/// <c>O_DIRECT</c> without <c>O_DSYNC</c>, so a commit is one <c>pwrite64</c> that reached the device's (volatile) cache,
/// and no call flushes it (strace: 200 <c>pwrite64</c> and no fsync-family call for 200 SETs). Synced is
/// <c>--device-type FileStream</c>: Garnet opens its files through <c>FileStream</c> with <c>FileOptions.WriteThrough</c>,
/// which .NET opens <c>O_SYNC</c> on Linux, so every commit's <c>pwrite64</c> returns once the device has flushed it
/// (strace: 200 such writes for 200 SETs). Garnet 2.2.8 names no option that calls fsync.
/// </summary>
internal sealed class GarnetRow() : RespServerRow(StoreNames.Garnet, new StoreCapabilities
{
    MaxKeyBytes = MaxKeyBytes,
    MaxValueBytes = MaxValueBytes,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,

    // The Redis row's index: every key a member of one sorted set written in the same MULTI/EXEC as its value, which
    // ZRANGEBYLEX seeks in unsigned byte order; the probes measure that Garnet's seek is one.
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
}, s_tool, endpointVariable: "KVBENCH_GARNET_ENDPOINT")
{
    /// <summary>
    /// Garnet keeps a key over 1,022 bytes, or a value over its inline limit, on the heap instead of in the log's page,
    /// so neither is bounded by a page. Here (2.2.8, 2026-11-25) a SET of an 8 MiB key, the largest tried, round-tripped;
    /// KvBench refuses longer ones rather than claim what it did not see.
    /// </summary>
    private const int MaxKeyBytes = 8 * 1024 * 1024;

    /// <summary>
    /// Values of 512 MiB round-tripped here (2.2.8, 2026-11-25, with a 5 GiB resident server); a SET of 512 MiB and one
    /// byte got no reply within five minutes, so KvBench refuses anything longer.
    /// </summary>
    private const int MaxValueBytes = 512 * 1024 * 1024;

    private static readonly DotnetServerTool s_tool = new("garnet-server");

    /// <summary>The storage device is the server's, for every client, so KvBench runs one server per tier.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.Buffered, DurabilityTiers.Synced];

    /// <summary>The storage device that is each tier.</summary>
    internal static string DeviceTypeOf(Durability durability) => durability == Durability.Synced ? "FileStream" : "RandomAccess";

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>
    /// <c>--storage-tier</c>: the store spills to files, and without it Garnet refuses <c>--logdir</c>;
    /// <c>--aof --aof-commit-wait</c>: every write is appended to the append-only file, and the reply waits for the
    /// append to reach the device; <c>--device-type</c>: the tier's device (<see cref="DeviceTypeOf"/>), both .NET's own
    /// file I/O, where the default native device needs a native library of its own (here it failed to load it) and
    /// fails on its first write without it; <c>--recover</c>: a server restarted on
    /// the directory (after a kill) reads its checkpoint and replays its file, and a fresh one starts empty.
    /// </summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) => s_tool.StartInfo(Name,
    [
        "--bind", "127.0.0.1", "--port", port.ToString(CultureInfo.InvariantCulture),
        "--storage-tier", "--logdir", Path.Combine(dataDirectory, "log"), "--checkpointdir", Path.Combine(dataDirectory, "checkpoint"),
        "--aof", "--aof-commit-wait", "--device-type", DeviceTypeOf(tiers == DurabilityTiers.Synced ? Durability.Synced : Durability.Buffered), "--recover",
    ]);

    /// <summary>
    /// Nothing unless every write is in the append-only file before its reply (<c>appendonly</c>, <c>aof-commit-wait</c>,
    /// and not <c>aof-null-device</c>, as CONFIG GET reports them). Garnet does not report its storage device over its
    /// protocol, so Synced is read from the command line of a server that runs on this machine (<c>--device-type
    /// FileStream</c>); a server elsewhere, or one whose command line does not say, is taken as Buffered.
    /// </summary>
    internal override DurabilityTiers OfferedBy(IServer server)
    {
        if (Setting(server, "appendonly") != "yes" || Setting(server, "aof-commit-wait") != "yes" || Setting(server, "aof-null-device") != "no")
        {
            return DurabilityTiers.None;
        }

        return LocalServerProcess.CommandLine(server.EndPoint) is { } commandLine && DeviceType(commandLine) == DeviceTypeOf(Durability.Synced)
            ? DurabilityTiers.Synced
            : DurabilityTiers.Buffered;
    }

    /// <summary>The value of <c>--device-type</c> on <paramref name="commandLine"/> (<c>--device-type X</c> or <c>--device-type=X</c>), or <see langword="null"/>.</summary>
    private static string? DeviceType(IReadOnlyList<string> commandLine)
    {
        const string Option = "--device-type";
        for (int i = 0; i < commandLine.Count; i++)
        {
            if (commandLine[i] == Option && i + 1 < commandLine.Count)
            {
                return commandLine[i + 1];
            }

            if (commandLine[i].StartsWith(Option + "=", StringComparison.Ordinal))
            {
                return commandLine[i][(Option.Length + 1)..];
            }
        }

        return null;
    }
}
