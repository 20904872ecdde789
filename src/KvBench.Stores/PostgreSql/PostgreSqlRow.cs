using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

using Npgsql;

namespace KvBench.Stores.PostgreSql;

/// <summary>
/// The <c>PostgreSQL</c> row: <see cref="PostgreSqlStore"/> over Npgsql, on Debian's PostgreSQL. Buffered is
/// <c>synchronous_commit=off</c> (a commit returns before its WAL is flushed; the WAL writer flushes it within
/// about three <c>wal_writer_delay</c>s), Synced is <c>synchronous_commit=on</c> with <c>fsync=on</c> (flushed before
/// the commit returns). Both are a session's own setting, so one server serves both tiers.
/// </summary>
internal sealed class PostgreSqlRow() : ServerRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = PostgreSqlStore.MaxKeyBytes,

    // A bytea holds at most 1 GB (a varlena of 2^30 - 1 bytes with its header), and the server refuses a protocol
    // message over the same size, which a Put's key and statement share with the value: 64 KiB are left for them.
    MaxValueBytes = (1 << 30) - 1 - (64 * 1024),
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
}, clientPackage: "Npgsql", debianPackage: "postgresql", endpointVariable: "KVBENCH_POSTGRESQL_ENDPOINT")
{
    /// <summary>PostgreSQL through Npgsql: one bytea key-value table.</summary>
    internal const string RowName = "PostgreSQL";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new PostgreSqlRaw(directory))];

    /// <summary>initdb refuses to run as root, and the server refuses too: both run as the package's own user.</summary>
    private const string ServerUser = "postgres";

    /// <summary>
    /// SIGQUIT, PostgreSQL's immediate shutdown: the server stops its backends and removes its System V shared memory
    /// segment on the way out, which a SIGKILL leaves behind (one segment per killed server).
    /// </summary>
    internal override int? StopSignal => Signals.Quit;

    /// <summary>
    /// PostgreSQL's documentation of asynchronous commit: a crash of the database may lose the transactions of at most
    /// three times wal_writer_delay (200 ms by default, which KvBench's server keeps).
    /// </summary>
    public override ServerTierPromise Promise(Durability durability) => durability == Durability.Synced
        ? new("synchronous_commit=on, fsync=on", TimeSpan.Zero, "a commit returns once its WAL is flushed: nothing acknowledged is lost")
        : new(
            "synchronous_commit=off",
            TimeSpan.FromMilliseconds(3 * 200),
            "a commit returns before its WAL is flushed: a crash of the database may lose the commits of up to 3 x " +
                "wal_writer_delay (200 ms)");

    /// <summary>synchronous_commit is a session's setting: one server serves both tiers.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.All];

    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers) =>
        ServerCommand.RunOrThrow(Name, AsServerUser(new ProcessStartInfo(Binary("initdb"),
        [
            "-D", dataDirectory, "-A", "trust", "-U", ServerUser, "-E", "UTF8", "--locale=C",

            // The data directory is scratch: what initdb writes needs no flush, which saves seconds per start.
            "--no-sync", "--no-instructions",
        ])), TimeSpan.FromMinutes(2));

    /// <summary>
    /// The socket goes into the data directory, which the server's user owns (Debian's default, /run/postgresql, may
    /// not exist without systemd).
    /// </summary>
    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) =>
        AsServerUser(new ProcessStartInfo(Binary("postgres"),
    [
        "-D", dataDirectory, "-p", port.ToString(CultureInfo.InvariantCulture), "-k", dataDirectory,
        "-c", "listen_addresses=127.0.0.1", "-c", "fsync=on",
    ]));

    internal override async Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken)
    {
        NpgsqlConnectionStringBuilder builder = PostgreSqlStore.ConnectionString(endpoint);
        builder.Pooling = false;
        builder.Timeout = 2;
        try
        {
            await using var connection = new NpgsqlConnection(builder.ConnectionString);
            await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (NpgsqlException)
        {
            // Refused while it starts, or "the database system is starting up".
            return false;
        }
    }

    /// <summary>pgbench, from the server's own package, with KvBench's point reads and upserts as its scripts.</summary>
    public override ServerBenchmark OwnBenchmark { get; } = new PgBench();

    private protected override IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName) =>
        new PostgreSqlStore(this, options, endpoint, storeName);

    private protected override IServerPing OpenPingCore(string endpoint) =>
        new SqlPing(new NpgsqlConnection(PostgreSqlStore.ConnectionString(endpoint).ConnectionString));

    /// <summary>SQLSTATE 53100 (disk_full) and the XX001/XX002 of damaged data and index pages.</summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        PostgresException { SqlState: "53100" } => StoreFailure.Full,
        PostgresException { SqlState: "XX001" or "XX002" } => StoreFailure.Damaged,
        NpgsqlException => StoreFailure.Failed,
        _ => StoreFailures.DotNetIo(error),
    };

    /// <summary>
    /// A program of the newest PostgreSQL Debian installed: its binaries live in /usr/lib/postgresql/VERSION/bin, off the
    /// PATH (Debian's wrappers pick a cluster of the system's own, which KvBench does not use).
    /// </summary>
    internal static string Binary(string program)
    {
        const string Versions = "/usr/lib/postgresql";
        string? newest = Directory.Exists(Versions)
            ? Directory.EnumerateDirectories(Versions)
                .Where(version => File.Exists(Path.Combine(version, "bin", program)))
                .MaxBy(version => int.TryParse(Path.GetFileName(version), NumberStyles.None, CultureInfo.InvariantCulture, out int major) ? major : -1)
            : null;
        return newest is null
            ? throw new StoreUnavailableException(RowName, $"no {program} under {Versions}/*/bin although the postgresql package is installed")
            : Path.Combine(newest, "bin", program);
    }

    /// <summary>
    /// Runs the program as <see cref="ServerUser"/> directly (the runtime sets the user before it executes the program),
    /// so the process KvBench holds is the server itself and a stop reaches it, with no runuser between them.
    /// </summary>
    private static ProcessStartInfo AsServerUser(ProcessStartInfo startInfo)
    {
        startInfo.UserName = ServerUser;

        // The caller's working directory may be closed to that user (root's home), which PostgreSQL's programs refuse.
        startInfo.WorkingDirectory = ServerDirectories.Root;
        return startInfo;
    }
}
