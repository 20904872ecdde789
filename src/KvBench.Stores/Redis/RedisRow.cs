using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// The <c>Redis</c> row: <see cref="RedisStore"/> over StackExchange.Redis, on Debian's redis-server with its
/// append-only file. Buffered is <c>appendfsync everysec</c> (the file is written before each reply and flushed once a
/// second), Synced is <c>always</c> (flushed before each reply).
/// </summary>
internal sealed class RedisRow() : RespServerRow(StoreNames.Redis, new StoreCapabilities
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
    private const string RedisServer = "/usr/bin/redis-server";

    /// <summary>appendfsync holds for every client of a server, so KvBench runs one server per tier.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.Buffered, DurabilityTiers.Synced];

    /// <summary>The appendfsync setting that is each tier.</summary>
    internal static string AppendFsyncOf(Durability durability) => durability == Durability.Synced ? "always" : "everysec";

    /// <summary>Redis' persistence documentation: with everysec "you may lose 1 second of data" in a disaster; always flushes before each reply.</summary>
    public override ServerTierPromise Promise(Durability durability) => durability == Durability.Synced
        ? new($"appendfsync {AppendFsyncOf(durability)}", TimeSpan.Zero, "every write is flushed to the append-only file before its reply: nothing acknowledged is lost")
        : new($"appendfsync {AppendFsyncOf(durability)}", TimeSpan.FromSeconds(1), "the append-only file is flushed once a second: a disaster may lose about the last second of writes");

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) => Directory.CreateDirectory(dataDirectory);

    /// <summary>Runs as the caller (Redis needs no user of its own); <c>--save ""</c>: the append-only file is the only persistence, no snapshots.</summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) => new(RedisServer,
    [
        "--port", port.ToString(CultureInfo.InvariantCulture), "--bind", "127.0.0.1", "--dir", dataDirectory,
        "--appendonly", "yes", "--appendfsync", AppendFsyncOf(tiers == DurabilityTiers.Synced ? Durability.Synced : Durability.Buffered),
        "--save", string.Empty, "--daemonize", "no",
    ]);

    /// <summary>Buffered at <c>appendfsync everysec</c>, Synced at <c>always</c>, both with the append-only file on; nothing else.</summary>
    internal override DurabilityTiers OfferedBy(IServer server) => Setting(server, "appendonly") != "yes" ? DurabilityTiers.None : Setting(server, "appendfsync") switch
    {
        "always" => DurabilityTiers.Synced,
        "everysec" => DurabilityTiers.Buffered,
        _ => DurabilityTiers.None,
    };
}
