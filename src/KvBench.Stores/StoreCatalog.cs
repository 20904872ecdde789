using KvBench.Core;
using KvBench.Stores.FileSystem;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;

namespace KvBench.Stores;

/// <summary>Every row KvBench measures, opened by name. A store joins every benchmark, test and CLI command by being added here.</summary>
public static class StoreCatalog
{
    private static readonly (string Name, StoreCapabilities Declared, Func<string, StoreOptions, IKeyValueStore> Open)[] s_rows =
    [
        (StoreNames.SqliteWal, SqliteStore.Declared, static (name, options) => new SqliteStore(name, new BlobKeySchema(), options)),
        (StoreNames.SqliteScalar, SqliteStore.Declared, static (name, options) => new SqliteStore(name, new ScalarKeySchema(), options)),
        (StoreNames.FileSystem, FileSystemStore.Declared, static (name, options) => new FileSystemStore(name, options)),
        (StoreNames.Memory, MemoryStore.Declared, static (name, options) => new MemoryStore(name, options)),
    ];

    private static readonly Dictionary<string, string> s_unavailable = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Every row, in table order, including rows whose store cannot be had on this machine.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. s_rows.Select(row => row.Name)];

    /// <summary>The rows that can be opened here.</summary>
    public static IReadOnlyList<string> AvailableNames { get; } = [.. Names.Where(name => !s_unavailable.ContainsKey(name))];

    /// <summary>Why <paramref name="name"/> cannot be opened here, or <see langword="null"/> when it can.</summary>
    public static string? UnavailableReason(string name) => s_unavailable.GetValueOrDefault(Canonical(name));

    /// <summary>What the row's adapter claims, without opening it.</summary>
    public static StoreCapabilities DeclaredCapabilities(string name)
    {
        string canonical = Canonical(name);
        return s_rows.First(row => row.Name == canonical).Declared;
    }

    /// <summary>Opens the row <paramref name="name"/> (case-insensitive) with <paramref name="options"/>.</summary>
    /// <exception cref="ArgumentException">No row has that name; the message lists the names.</exception>
    /// <exception cref="StoreUnavailableException">The row's store cannot be had on this machine.</exception>
    /// <exception cref="StoreLockedException">Another process holds the store.</exception>
    public static IKeyValueStore Open(string name, StoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        string canonical = Canonical(name);
        if (s_unavailable.TryGetValue(canonical, out string? reason))
        {
            throw new StoreUnavailableException(canonical, reason);
        }

        return s_rows.First(row => row.Name == canonical).Open(canonical, options);
    }

    private static string Canonical(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return Names.FirstOrDefault(candidate => string.Equals(candidate, name, StringComparison.OrdinalIgnoreCase))
            ?? throw new ArgumentException($"No store is named '{name}'. Known stores: {string.Join(", ", Names)}.", nameof(name));
    }
}
