using System.Diagnostics.CodeAnalysis;

using KvBench.Core;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// Settings of the <c>LMDB</c> row a user may want to change; pass them to <see cref="StoreCatalog.Open"/> in place of
/// <see cref="StoreOptions"/>. A row opened with plain <see cref="StoreOptions"/> takes every default.
/// </summary>
public sealed record LmdbStoreOptions : StoreOptions
{
    /// <summary>Options with every LMDB setting at its default.</summary>
    public LmdbStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and every LMDB setting at its default.</summary>
    [SetsRequiredMembers]
    public LmdbStoreOptions(StoreOptions options)
        : base(options ?? throw new ArgumentNullException(nameof(options)))
    {
    }

    /// <summary>
    /// The size of the map when the environment is opened, in bytes, or <see langword="null"/> for 1 GiB (the default:
    /// address space only, see <see cref="LmdbStore.DefaultInitialMapBytes"/>). The map grows by itself when it fills,
    /// and an environment whose recorded map is larger keeps that size. Must be positive.
    /// </summary>
    public long? InitialMapBytes { get; init; }

    /// <summary><paramref name="options"/> itself when it carries LMDB settings, else the defaults with its common settings.</summary>
    internal static LmdbStoreOptions From(StoreOptions options) => options as LmdbStoreOptions ?? new LmdbStoreOptions(options);
}
