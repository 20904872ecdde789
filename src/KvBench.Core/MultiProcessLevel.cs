namespace KvBench.Core;

/// <summary>How several processes may use one store at the same time.</summary>
public enum MultiProcessLevel
{
    /// <summary>The data lives in one process's memory; another process never sees it.</summary>
    InProcess,

    /// <summary>One process at a time; a second open fails fast with <see cref="StoreLockedException"/>.</summary>
    Exclusive,

    /// <summary>
    /// One process writes; others open with <see cref="StoreAccess.ReadOnly"/> or <see cref="StoreAccess.Secondary"/>
    /// and see flushed writes.
    /// </summary>
    OneWriter,

    /// <summary>Several processes read and write at once; each sees the others' committed writes.</summary>
    Shared,
}
