using System.Diagnostics.CodeAnalysis;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// Settings of the <c>dqlite</c> row beside <see cref="ServerStoreOptions"/>'s; pass them to <see cref="StoreCatalog.Open"/>
/// in place of <see cref="StoreOptions"/>. Left out, every setting is the row's default.
/// </summary>
public sealed record DqliteStoreOptions : ServerStoreOptions
{
    /// <summary>The default of <see cref="RequestTimeout"/>: 10 s.</summary>
    public static readonly TimeSpan DefaultRequestTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Options with every setting at its default.</summary>
    public DqliteStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and every dqlite setting at its default.</summary>
    [SetsRequiredMembers]
    public DqliteStoreOptions(StoreOptions options)
        : base(options)
    {
    }

    /// <summary>
    /// How long a call waits for the cluster's answer before it fails with <see cref="StoreUnavailableException"/> and
    /// its shell process is killed. The shell sets no deadline of its own: a request to a leader that stopped answering
    /// (paused, cut off) would wait forever, while one sent during an election waits for the new leader. Default:
    /// <see cref="DefaultRequestTimeout"/>, about twice as long as the election that follows a killed leader takes.
    /// </summary>
    public TimeSpan RequestTimeout { get; init; } = DefaultRequestTimeout;
}
