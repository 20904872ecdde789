using System.Diagnostics.CodeAnalysis;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// Options of the server rows (Redis, PostgreSQL, MariaDB); pass them to <see cref="StoreCatalog.Open"/> in place of
/// <see cref="StoreOptions"/>. <see cref="StoreOptions.Directory"/> names the store on the server: its full path is
/// hashed into a table name (a key prefix for Redis), so every directory has a store of its own and nothing is written
/// into the directory itself. A row with settings of its own takes a derived record (<see cref="MariaDb.MariaDbStoreOptions"/>).
/// </summary>
public record ServerStoreOptions : StoreOptions
{
    /// <summary>Options with <see cref="Endpoint"/> at its default.</summary>
    public ServerStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and <see cref="Endpoint"/> at its default.</summary>
    [SetsRequiredMembers]
    public ServerStoreOptions(StoreOptions options)
        : base(options ?? throw new ArgumentNullException(nameof(options)))
    {
    }

    /// <summary>
    /// Where the row's server is: <c>host:port</c>, or the client's own connection string (one with <c>=</c> in it: a
    /// StackExchange.Redis configuration, an Npgsql or a MySqlConnector connection string); for etcd, the client
    /// endpoints of its members, comma-separated (<c>host:port,host:port,host:port</c>). Default
    /// (<see langword="null"/>): the row's environment variable (<see cref="ServerRow.EndpointVariable"/>, for example
    /// <c>KVBENCH_REDIS_ENDPOINT</c>) when it is set, so a team can point every command at the server it runs, else the
    /// server KvBench started for the row in this process (a test suite or the evaluation starts it through
    /// <see cref="StoreRow.CreateHost"/>), else the one <c>kvbench servers up</c> runs (<see cref="PublishedServers"/>);
    /// KvBench's own servers are chosen at the durability asked for.
    /// </summary>
    public string? Endpoint { get; init; }

    /// <summary><paramref name="options"/> itself when it carries server settings, else the defaults with its common settings.</summary>
    internal static ServerStoreOptions From(StoreOptions options) => options as ServerStoreOptions ?? new ServerStoreOptions(options);
}
