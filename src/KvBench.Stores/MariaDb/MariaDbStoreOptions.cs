using System.Diagnostics.CodeAnalysis;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.MariaDb;

/// <summary>The SQL the MariaDB row writes a key with that may already exist.</summary>
public enum MariaDbUpsert
{
    /// <summary><c>INSERT ... ON DUPLICATE KEY UPDATE v = VALUES(v)</c>: updates the row in place.</summary>
    InsertOnDuplicateKeyUpdate,

    /// <summary><c>REPLACE INTO</c>: deletes the old row, then inserts the new one.</summary>
    Replace,
}

/// <summary>
/// Settings of the <c>MariaDB</c> row beside <see cref="ServerStoreOptions"/>'s; pass them to
/// <see cref="StoreCatalog.Open"/> in place of <see cref="StoreOptions"/>. Left out, every setting is the row's default.
/// </summary>
public sealed record MariaDbStoreOptions : ServerStoreOptions
{
    /// <summary>Options with every setting at its default.</summary>
    public MariaDbStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and every MariaDB setting at its default.</summary>
    [SetsRequiredMembers]
    public MariaDbStoreOptions(StoreOptions options)
        : base(options)
    {
    }

    /// <summary>Which statement Put and PutMany run. Default: <see cref="MariaDbUpsert.InsertOnDuplicateKeyUpdate"/>, the row's own.</summary>
    public MariaDbUpsert Upsert { get; init; } = MariaDbUpsert.InsertOnDuplicateKeyUpdate;
}
