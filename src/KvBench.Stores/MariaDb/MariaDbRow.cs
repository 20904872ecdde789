using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Baselines;
using KvBench.Stores.Servers;

using MySqlConnector;

namespace KvBench.Stores.MariaDb;

/// <summary>
/// The <c>MariaDB</c> row: <see cref="MariaDbStore"/> over MySqlConnector, on Debian's MariaDB with InnoDB. Buffered is
/// <c>innodb_flush_log_at_trx_commit=2</c> (the redo log is written at each commit and flushed about once a second),
/// Synced is <c>1</c> (written and flushed at each commit).
/// </summary>
public sealed class MariaDbRow() : ServerRow(RowName, new StoreCapabilities
{
    MaxKeyBytes = MariaDbStore.MaxKeyBytes,

    // max_allowed_packet (16 MiB by default) bounds one statement, whose key and fields share it with the value:
    // 64 KiB are left for them. Statements are prepared, so the value travels as it is, not escaped.
    MaxValueBytes = (16 * 1024 * 1024) - (64 * 1024),
    GrowsWithoutRestart = true,
    MultiProcess = MultiProcessLevel.Shared,
    OrderedPrefixScan = true,
    Durability = DurabilityTiers.All,
}, clientPackage: "MySqlConnector", debianPackage: "mariadb-server", endpointVariable: "KVBENCH_MARIADB_ENDPOINT")
{
    /// <summary>MariaDB through MySqlConnector: one InnoDB VARBINARY/LONGBLOB key-value table.</summary>
    public const string RowName = "MariaDB";

    /// <inheritdoc/>
    public override IReadOnlyList<PointBaseline> Baselines { get; } =
        [new(RowVariantKind.Raw, static directory => new MariaDbRaw(directory))];

    /// <summary>The user the package creates for the server; mariadbd refuses to run as root without being told to.</summary>
    private const string ServerUser = "mysql";

    /// <summary>innodb_flush_log_at_trx_commit holds for every session of a server, so KvBench runs one server per tier.</summary>
    internal override IReadOnlyList<DurabilityTiers> ServerTiers { get; } = [DurabilityTiers.Buffered, DurabilityTiers.Synced];

    /// <summary>The innodb_flush_log_at_trx_commit that is each tier.</summary>
    internal static int FlushLogAtCommitOf(Durability durability) => durability == Durability.Synced ? 1 : 2;

    /// <summary>
    /// MariaDB's documentation of innodb_flush_log_at_trx_commit: at 2 the log is flushed once a second, so an
    /// operating system crash or a power outage may lose about a second of transactions.
    /// </summary>
    public override ServerTierPromise Promise(Durability durability) => durability == Durability.Synced
        ? new(
            $"innodb_flush_log_at_trx_commit={FlushLogAtCommitOf(durability)}",
            TimeSpan.Zero,
            "the redo log is written and flushed at every commit: nothing acknowledged is lost")
        : new(
            $"innodb_flush_log_at_trx_commit={FlushLogAtCommitOf(durability)}",
            TimeSpan.Zero,
            "the redo log is written at every commit and flushed once a second: an operating system crash or power " +
                "outage may lose about a second of transactions");

    /// <summary>
    /// <c>--no-defaults</c>: Debian's /etc/mysql files point at the system's own server (its socket under /run/mysqld);
    /// root may log in over TCP without a password (<c>normal</c>), which is what a scratch server on loopback needs.
    /// The server's directory holds its data and a temp directory of its own (<see cref="TempDirectory"/>).
    /// </summary>
    internal override void InitializeData(string dataDirectory, DurabilityTiers tiers)
    {
        // The server runs as a user of its own, which writes its socket and pid file to the server's directory and its
        // temporary tables to the temp directory.
        ServerDirectories.CreateShared(dataDirectory);
        string temp = TempDirectory(dataDirectory);
        ServerDirectories.CreateShared(temp);

        ServerCommand.RunOrThrow(Name, new ProcessStartInfo("/usr/bin/mariadb-install-db",
        [
            "--no-defaults", $"--user={ServerUser}", $"--datadir={DatabaseDirectory(dataDirectory)}", $"--tmpdir={temp}",
            "--auth-root-authentication-method=normal", "--skip-test-db",
        ])
        { WorkingDirectory = ServerDirectories.Root }, TimeSpan.FromMinutes(3));
    }

    internal override ProcessStartInfo ServerStartInfo(string dataDirectory, int port, DurabilityTiers tiers) => new("/usr/sbin/mariadbd",
    [
        "--no-defaults", $"--user={ServerUser}", $"--datadir={DatabaseDirectory(dataDirectory)}", $"--tmpdir={TempDirectory(dataDirectory)}",
        $"--port={port.ToString(CultureInfo.InvariantCulture)}", "--bind-address=127.0.0.1",
        $"--socket={Path.Combine(dataDirectory, "mariadb.sock")}", $"--pid-file={Path.Combine(dataDirectory, "mariadb.pid")}",
        $"--innodb-flush-log-at-trx-commit=" +
            $"{FlushLogAtCommitOf(tiers == DurabilityTiers.Synced ? Durability.Synced : Durability.Buffered).ToString(CultureInfo.InvariantCulture)}",
    ])
    {
        WorkingDirectory = ServerDirectories.Root,

        // Started as its user rather than switching to it itself, which would drop the kernel's promise to kill it
        // with KvBench (ChildProcesses).
        UserName = Environment.UserName == "root" ? ServerUser : null,
    };

    /// <summary>Where the server's databases are: mariadbd takes every folder of its data directory for a database.</summary>
    private static string DatabaseDirectory(string serverDirectory) => Path.Combine(serverDirectory, "data");

    /// <summary>
    /// mariadbd's temp directory, one per server: a starting server (and <c>mariadb-install-db</c>'s bootstrap) deletes
    /// every <c>#sql</c> file it finds in its temp directory as its own leftovers, so with the default /tmp one starting
    /// server deleted another's temporary tables, and concurrent installs failed with "Error on delete of
    /// '/tmp/#sql-temptable-....MAD'" when several ran at once, which a directory each prevents).
    /// </summary>
    private static string TempDirectory(string serverDirectory) => Path.Combine(serverDirectory, "tmp");

    /// <summary>Answers once root can log in over TCP; creates KvBench's database on the way.</summary>
    internal override async Task<bool> AnswersAsync(string endpoint, CancellationToken cancellationToken)
    {
        try
        {
            await MariaDbStore.CreateDatabaseAsync(endpoint, cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (MySqlException)
        {
            return false;
        }
    }

    private protected override IKeyValueStore OpenAdapter(ServerStoreOptions options, string endpoint, string storeName) =>
        new MariaDbStore(this, options, endpoint, storeName);

    private protected override IServerPing OpenPingCore(string endpoint) =>
        new SqlPing(new MySqlConnection(MariaDbStore.ConnectionString(endpoint).ConnectionString));

    /// <summary>ER_DISK_FULL and ER_RECORD_FILE_FULL are a full disk; ER_NOT_KEYFILE and ER_CRASHED_ON_USAGE a damaged table.</summary>
    private protected override StoreFailure ClassifyEngineError(Exception error) => error switch
    {
        MySqlException { ErrorCode: MySqlErrorCode.DiskFull or MySqlErrorCode.RecordFileFull } => StoreFailure.Full,
        MySqlException { ErrorCode: MySqlErrorCode.NotKeyFile or MySqlErrorCode.CrashedOnUsage } => StoreFailure.Damaged,
        MySqlException => StoreFailure.Failed,
        _ => StoreFailures.DotNetIo(error),
    };
}
