namespace KvBench.Stores;

/// <summary>The row names, as tables print them.</summary>
public static class StoreNames
{
    /// <summary>SQLite, one WITHOUT ROWID blob table, WAL journal, one writer connection and a read connection per thread.</summary>
    public const string SqliteWal = "Sqlite_WAL";

    /// <summary>
    /// SQLite as <see cref="SqliteWal"/>, every thread sharing one connection behind a lock (what Sqlite_WAL was before
    /// it took a read connection per thread).
    /// </summary>
    public const string SqliteOneConnection = "Sqlite_OneConnection";

    /// <summary>SQLite as <see cref="SqliteWal"/>, one connection per thread.</summary>
    public const string SqlitePerThread = "Sqlite_PerThread";

    /// <summary>SQLite with the rollback journal (DELETE), one connection behind a lock.</summary>
    public const string SqliteRollback = "Sqlite_Rollback";

    /// <summary>SQLite in WAL, one connection per thread, all sharing one page cache.</summary>
    public const string SqliteSharedCache = "Sqlite_SharedCache";

    /// <summary>SQLite in WAL through Microsoft.Data.Sqlite as most .NET code uses it: a pooled connection opened per operation.</summary>
    public const string SqliteAdoNet = "Sqlite_AdoNet";

    /// <summary>SQLite with typed columns: an INTEGER category from the first key byte and a BLOB id.</summary>
    public const string SqliteScalar = "Sqlite_Scalar";

    /// <summary>LMDB through Debian's liblmdb0: one environment, its main database, a map that grows by itself.</summary>
    public const string Lmdb = "LMDB";

    /// <summary>LiteDB, one collection, shared connection mode (several processes).</summary>
    public const string LiteDb = "LiteDB";

    /// <summary>LiteDB in direct connection mode: one process at a time.</summary>
    public const string LiteDbDirect = "LiteDB_Direct";

    /// <summary>RocksDB through the RocksDB package (RocksDbSharp, its bundled RocksDB), default column family.</summary>
    public const string RocksDb = "RocksDB";

    /// <summary>FASTER's FasterKV over byte spans, durable at checkpoints.</summary>
    public const string Faster = "FASTER";

    /// <summary>One file per key.</summary>
    public const string FileSystem = "FileSystem";

    /// <summary>The in-process floor; not a candidate.</summary>
    public const string Memory = "Memory";

    /// <summary>Redis through StackExchange.Redis: values under a key prefix, a sorted-set index, the append-only file.</summary>
    public const string Redis = "Redis";

    /// <summary>Garnet, Microsoft Research's Redis-compatible server on Tsavorite, through the Redis row's client and store.</summary>
    public const string Garnet = "Garnet";

    /// <summary>PostgreSQL through Npgsql: one bytea key-value table.</summary>
    public const string PostgreSql = "PostgreSQL";

    /// <summary>MariaDB through MySqlConnector: one InnoDB VARBINARY/LONGBLOB key-value table.</summary>
    public const string MariaDb = "MariaDB";

    /// <summary>etcd through dotnet-etcd: a three-member Raft cluster, each store a key prefix, every commit synced.</summary>
    public const string Etcd = "etcd";

    /// <summary>dqlite through go-dqlite's shell: a three-node Raft-replicated SQLite, each store a table, every Raft append synced.</summary>
    public const string Dqlite = "dqlite";
}
