using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Faster;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// The <c>Garnet</c> row: Microsoft Research's Redis-compatible server in C# on Tsavorite (the maintained successor of
/// the FASTER engine the <c>FASTER</c> row runs in-process), through the Redis row's client and store
/// (<see cref="RedisStore"/>), run from KvBench's .NET tool manifest. Its append-only file is the durability: every
/// write is committed to it before the reply (<c>--aof --aof-commit-wait</c>), on <c>--device-type RandomAccess</c>,
/// which opens the file <c>O_DIRECT</c> without <c>O_DSYNC</c>: a commit is one <c>pwrite64</c> that reached the
/// device's (volatile) cache, and no call flushes it (under strace, one <c>pwrite64</c> per SET and no fsync-family
/// call), so the row offers Buffered only.
/// </summary>
/// <remarks>
/// Garnet 2.2.8 names no option that calls fsync. Its <c>--device-type FileStream</c> opens the file through
/// <c>FileStream</c> with <c>FileOptions.WriteThrough</c>, which .NET opens <c>O_SYNC</c> on Linux: strace saw one such
/// write per commit, a flush each. KvBench does not offer it as Synced because SIGKILL rounds on it (the server killed
/// under four writers, restarted on its directory with <c>--recover</c>) lost acknowledged writes. So did rounds on
/// RandomAccess, and the cause is neither device (docs/findings/garnet-kill-rounds.md): a kill in the middle of a
/// MULTI/EXEC (a Put is one) leaves the transaction's start in the append-only file without its end; Garnet numbers its
/// sessions from the start in every process, and once a later process's session of the same number runs a transaction,
/// every later recovery's replay stops there ("No nested transactions expected"), logs the error and serves what it
/// replayed, without whatever the file holds past it. No option prevents it (<c>--fail-on-recovery-error</c> only makes
/// the server refuse to start instead); a checkpoint after each recovery does, which the row does not take, as it runs
/// Garnet as its settings say. So Buffered (the write survives the process being killed) holds for one kill and not
/// across repeated kills and recoveries; GarnetKillRoundTests measures the loss both ways.
/// </remarks>
internal sealed class GarnetRow() : RespServerRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = MaxKeyBytes,
    MaxValueBytes = MaxValueBytes,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,

    // The Redis row's index: every key a member of one sorted set written in the same MULTI/EXEC as its value, which
    // ZRANGEBYLEX seeks in unsigned byte order; the probes measure that Garnet's seek is one.
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.Buffered,
}, s_tool, endpointVariable: "KVBENCH_GARNET_ENDPOINT")
{
    /// <summary>Garnet, Microsoft Research's Redis-compatible server on Tsavorite, through the Redis row's client and store.</summary>
    internal const string RowName = "Garnet";

    /// <summary>Garnet stores in Tsavorite, the maintained successor of the FASTER engine.</summary>
    public override string? InProcessLineage => FasterRow.RowName;

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new GarnetRaw(directory)) { ManyThreads = true }];

    /// <summary>
    /// Garnet keeps a key over 1,022 bytes, or a value over its inline limit, on the heap instead of in the log's page,
    /// so neither is bounded by a page. KvBench bounds keys at 8 MiB, the largest that Garnet 2.2.8 was seen to store and
    /// return, and refuses longer ones rather than claim what it did not check.
    /// </summary>
    private const int MaxKeyBytes = 8 * 1024 * 1024;

    /// <summary>
    /// Garnet 2.2.8 stores and returns values of 512 MiB, given a server with several GiB of memory, while a SET of one
    /// byte more gets no reply within minutes, so KvBench refuses anything longer.
    /// </summary>
    private const int MaxValueBytes = 512 * 1024 * 1024;

    private static readonly DotnetServerTool s_tool = new("garnet-server");

    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.Buffered];

    /// <summary>
    /// Garnet's documentation of <c>--aof-commit-wait</c>: the reply waits for the append-only file's commit, so a killed
    /// server should lose nothing acknowledged; the device is not flushed, so a power loss may (Buffered).
    /// </summary>
    public override ServerTierPromise Promise(Durability durability) =>
        new(
            "--aof --aof-commit-wait, --device-type RandomAccess",
            TimeSpan.Zero,
            "every write is committed to the append-only file before its reply, with no device flush: a killed " +
                "server loses nothing acknowledged, a power loss may");

    /// <summary>
    /// A write survives the kill after it, and a later recovery may drop it: once a kill has cut a MULTI/EXEC, every
    /// recovery after a further kill stops replaying at the cut (see the remarks).
    /// </summary>
    public override string? KnownLoss(Durability durability) => "Buffered until a later recovery";

    /// <summary>
    /// Garnet's device first opens an <c>O_TMPFILE | O_DIRECT</c> file in the folder to see whether it may write
    /// <c>O_DIRECT</c>; FUSE refuses <c>O_TMPFILE</c> (EOPNOTSUPP, seen under strace), and the device then opens its files
    /// <c>O_SYNC</c>, so every commit is flushed there, where on a disk file system it writes <c>O_DIRECT</c> and flushes
    /// nothing: rounds on the power-cut file system would test a setting the row does not run.
    /// </summary>
    public override string? PowerCutNotModelled =>
        "on a FUSE file system Garnet's device finds no O_DIRECT (its O_TMPFILE probe is refused) and writes O_SYNC, " +
            "flushing every commit, where on a disk it writes O_DIRECT without a flush: a power cut there would test " +
            "another setting than the row's";

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>
    /// <c>--storage-tier</c>: the store spills to files, and without it Garnet refuses <c>--logdir</c>;
    /// <c>--aof --aof-commit-wait</c>: every write is appended to the append-only file, and the reply waits for the
    /// append to reach the device; <c>--device-type RandomAccess</c>: .NET's own file I/O, where the default native
    /// device needs a native library of its own (here it failed to load it) and fails on its first write without it;
    /// <c>--recover</c>: a server restarted on the directory (after a kill) reads its checkpoint and replays its file, and
    /// a fresh one starts empty.
    /// </summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) => s_tool.StartInfo(Name,
    [
        "--bind", "127.0.0.1", "--port", port.ToString(CultureInfo.InvariantCulture),
        "--storage-tier", "--logdir", Path.Combine(dataDirectory, "log"), "--checkpointdir", Path.Combine(dataDirectory, "checkpoint"),
        "--aof", "--aof-commit-wait", "--device-type", "RandomAccess", "--recover",
    ]);

    /// <summary>
    /// Buffered when every write is in the append-only file before its reply (<c>appendonly</c>, <c>aof-commit-wait</c>,
    /// and not <c>aof-null-device</c>, as CONFIG GET reports them), else nothing.
    /// </summary>
    internal override DurabilityTiers OfferedBy(IServer server) =>
        Setting(server, "appendonly") == "yes" && Setting(server, "aof-commit-wait") == "yes" && Setting(server, "aof-null-device") == "no"
            ? DurabilityTiers.Buffered
            : DurabilityTiers.None;
}
