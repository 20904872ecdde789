namespace KvBench.Core;

/// <summary>How a process opens a store.</summary>
public enum StoreAccess
{
    /// <summary>Read and write.</summary>
    ReadWrite,

    /// <summary>Read only: writes throw <see cref="StoreReadOnlyException"/>. Another process may be writing.</summary>
    ReadOnly,

    /// <summary>
    /// A read-only follower of a writer in another process that catches up on <see cref="IKeyValueStore.Flush"/>
    /// (RocksDB's secondary instance). Stores without such a mode treat it as <see cref="ReadOnly"/>.
    /// </summary>
    Secondary,
}
