using System.Diagnostics.CodeAnalysis;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// Settings of the <c>etcd</c> row beside <see cref="ServerStoreOptions"/>'s; pass them to <see cref="StoreCatalog.Open"/>
/// in place of <see cref="StoreOptions"/>. Left out, every setting is the row's default.
/// </summary>
public sealed record EtcdStoreOptions : ServerStoreOptions
{
    /// <summary>Options with every setting at its default.</summary>
    public EtcdStoreOptions()
    {
    }

    /// <summary>Options with the common settings of <paramref name="options"/> and every etcd setting at its default.</summary>
    [SetsRequiredMembers]
    public EtcdStoreOptions(StoreOptions options)
        : base(options)
    {
    }

    /// <summary>
    /// Whether reads are serializable: answered by whichever member the request reaches, from what it has applied,
    /// without asking a quorum; faster, and possibly stale (a member cut off from the others, or a leader deposed
    /// without knowing it, answers from what it had). Default: <see langword="false"/>, linearizable reads, etcd's own
    /// default: every read sees every write acknowledged before it began.
    /// </summary>
    public bool SerializableReads { get; init; }
}
