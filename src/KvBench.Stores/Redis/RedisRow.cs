using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// The <c>Redis</c> row: <see cref="RedisStore"/> over StackExchange.Redis, on Debian's redis-server with its
/// append-only file. Buffered is <c>appendfsync no</c> (the file is written before each reply and flushed when the
/// operating system chooses), Synced is <c>always</c> (flushed before each reply).
/// </summary>
/// <remarks>
/// Buffered is not Redis' default, <c>everysec</c>: there, while a background fsync of the file is still running, Redis
/// postpones writing the file for up to two seconds and replies all the same, so a killed server loses writes it had
/// acknowledged (the kill rounds saw it), which a Buffered write of every other row survives. With <c>no</c> there is no
/// background fsync to wait for, and every reply follows the write of its command.
/// </remarks>
internal sealed class RedisRow() : RespServerRow(RowName, new StoreCapabilities
{
    // proto-max-bulk-len (512 MiB by default) bounds one argument: a value, or a key with KvBench's prefix. A SET carries
    // both, and client-query-buffer-limit (1 GiB by default) bounds one command, so keys stop at half a value's limit.
    MaxKeyBytes = 256 * 1024 * 1024,
    MaxValueBytes = 512 * 1024 * 1024,
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,

    // Every key is also a member of one sorted set, written in the same MULTI/EXEC as its value, and ZRANGEBYLEX
    // seeks it in unsigned byte order (memcmp), so a prefix scan reads only what it returns.
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
}, new DebianServerPackage("redis-server"), endpointVariable: "KVBENCH_REDIS_ENDPOINT")
{
    /// <summary>Redis through StackExchange.Redis: values under a key prefix, a sorted-set index, the append-only file.</summary>
    internal const string RowName = "Redis";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new RedisRaw(directory)) { ManyThreads = true }];

    private const string RedisServer = "/usr/bin/redis-server";

    /// <summary>appendfsync holds for every client of a server, so KvBench runs one server per tier.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.Buffered, DurabilityTiers.Synced];

    /// <summary>The appendfsync setting that is each tier.</summary>
    internal static string AppendFsyncOf(Durability durability) => durability == Durability.Synced ? "always" : "no";

    /// <summary>
    /// Redis' persistence documentation: with always every write is flushed before its reply; with no the file is written
    /// before each reply and "the Operating System will flush the data", so a killed server loses nothing and a crash of
    /// the machine what the operating system had not yet written.
    /// </summary>
    public override ServerTierPromise Promise(Durability durability) => durability == Durability.Synced
        ? new(
            $"appendfsync {AppendFsyncOf(durability)}",
            TimeSpan.Zero,
            "every write is flushed to the append-only file before its reply: nothing acknowledged is lost")
        : new(
            $"appendfsync {AppendFsyncOf(durability)}",
            TimeSpan.Zero,
            "every write reaches the append-only file before its reply and the operating system flushes it when it " +
                "chooses: a killed server loses nothing acknowledged, a crash of the machine what was not yet flushed");

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>Runs as the caller (Redis needs no user of its own); <c>--save ""</c>: the append-only file is the only persistence, no snapshots.</summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) => new(RedisServer,
    [
        "--port", port.ToString(CultureInfo.InvariantCulture), "--bind", "127.0.0.1", "--dir", dataDirectory,
        "--appendonly", "yes", "--appendfsync", AppendFsyncOf(tiers == DurabilityTiers.Synced ? Durability.Synced : Durability.Buffered),
        "--save", string.Empty, "--daemonize", "no",
    ]);

    /// <summary>
    /// Buffered at <c>appendfsync no</c>, Synced at <c>always</c>, both with the append-only file on; nothing else, not
    /// <c>everysec</c>, whose postponed writes a killed server loses.
    /// </summary>
    internal override DurabilityTiers OfferedBy(IServer server) =>
        Setting(server, "appendonly") != "yes" ? DurabilityTiers.None : Setting(server, "appendfsync") switch
        {
            "always" => DurabilityTiers.Synced,
            "no" => DurabilityTiers.Buffered,
            _ => DurabilityTiers.None,
        };
}
