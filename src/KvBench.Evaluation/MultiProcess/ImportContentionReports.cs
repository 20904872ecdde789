namespace KvBench.Evaluation.MultiProcess;

/// <summary>The error that kept an import-contention worker from opening the store.</summary>
/// <param name="Error">Its type name, for example <c>StoreLockedException</c>.</param>
/// <param name="Message">Its message.</param>
/// <param name="Milliseconds">How long the open took to fail.</param>
public sealed record OpenFailure(string Error, string Message, double Milliseconds)
{
    /// <summary>"StoreLockedException: message".</summary>
    public override string ToString() => $"{Error}: {Message}";
}

/// <summary>What the "ui" worker of an import-contention run reports last: what it saw of the import and what it wrote.</summary>
public sealed record UiReport
{
    /// <summary>Why the store did not open, or <see langword="null"/> when it did.</summary>
    public OpenFailure? OpenFailure { get; init; }

    /// <summary>For a ui that opened without write access: the type name of the error its one write attempt got.</summary>
    public string? WriteRefusedWith { get; init; }

    /// <summary>
    /// Per cli batch, in batch order from batch 0: the ui's <see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> right
    /// after the read that first found the batch's last record. Batches after the last entry were never seen.
    /// </summary>
    public IReadOnlyList<long> BatchSeenAt { get; init; } = [];

    /// <summary>Looks at the cli's records that found other bytes than the cli wrote.</summary>
    public long WrongBatchValues { get; init; }

    /// <summary>Store calls of the looking thread that threw, and the ui's last Flush if it did (the workload's own errors are in its phase results).</summary>
    public long WatchErrorCount { get; init; }

    /// <summary>The first few of those errors, as <c>Type: message</c>.</summary>
    public IReadOnlyList<string> WatchErrors { get; init; } = [];

    /// <summary>Every record the ui's workload updated, with <see cref="AcknowledgedVersions"/>: the last version each was acknowledged at.</summary>
    public IReadOnlyList<long> AcknowledgedIndexes { get; init; } = [];

    /// <summary>The last acknowledged version of each record in <see cref="AcknowledgedIndexes"/>, in the same order.</summary>
    public IReadOnlyList<ulong> AcknowledgedVersions { get; init; } = [];
}

/// <summary>What the "cli" worker of an import-contention run reports: which batches were acknowledged, and when.</summary>
public sealed record ImportReport
{
    /// <summary>Why the store did not open, or <see langword="null"/> when it did.</summary>
    public OpenFailure? OpenFailure { get; init; }

    /// <summary>Records per batch.</summary>
    public int BatchSize { get; init; }

    /// <summary>Batches the cli tried to write: batch b holds records b × <see cref="BatchSize"/> onwards.</summary>
    public long BatchesAttempted { get; init; }

    /// <summary>The batches PutMany returned for, in order.</summary>
    public IReadOnlyList<long> AcknowledgedBatches { get; init; } = [];

    /// <summary>The cli's <see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> right after each acknowledged batch's PutMany returned.</summary>
    public IReadOnlyList<long> AcknowledgedAt { get; init; } = [];

    /// <summary>
    /// For a row whose writer times its commits (<see cref="KvBench.Stores.Sqlite.ISqliteCommitClock"/>), per acknowledged
    /// batch in the same order: the cli's timestamp when the batch's commit was visible to other processes (SQLite's WAL
    /// hook), 0 where that commit was not seen; empty for every other row.
    /// </summary>
    public IReadOnlyList<long> CommittedAt { get; init; } = [];

    /// <summary>Beside <see cref="CommittedAt"/>: the ticks the cli's writer then spent in the auto-checkpoint, 0 when that commit ran none.</summary>
    public IReadOnlyList<long> CheckpointTicks { get; init; } = [];

    /// <summary>Beside <see cref="CommittedAt"/>: the frames in the WAL after that commit, which decide whether it checkpoints.</summary>
    public IReadOnlyList<int> WalFrames { get; init; } = [];

    /// <summary>The WAL frames at which the cli's writer checkpoints after a commit (<c>wal_autocheckpoint</c>); 0 for a row that does not say.</summary>
    public int AutoCheckpointFrames { get; init; }

    /// <summary>Seconds from the start of the import to the last acknowledged batch.</summary>
    public double Seconds { get; init; }

    /// <summary>Store calls that threw: batches that failed, and the Flush at the end.</summary>
    public long ErrorCount { get; init; }

    /// <summary>The first few of those errors, as <c>Type: message</c>.</summary>
    public IReadOnlyList<string> Errors { get; init; } = [];

    /// <summary>Acknowledged records per second of the import.</summary>
    public double RecordsPerSecond => Seconds > 0 ? AcknowledgedBatches.Count * (double)BatchSize / Seconds : 0;
}
