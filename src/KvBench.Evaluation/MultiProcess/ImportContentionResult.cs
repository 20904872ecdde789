using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What an import-contention run measured on one row: the ui alone, the ui while the cli imported, the lag and the read-back.</summary>
public sealed record ImportContentionResult
{
    /// <summary>The row name.</summary>
    public required string Store { get; init; }

    /// <summary>The row's declared multi-process level, which decides the shape.</summary>
    public required MultiProcessLevel Level { get; init; }

    /// <summary>How the ui opened the store: to read and write, or as a secondary of the cli where only one process may write.</summary>
    public required StoreAccess UiAccess { get; init; }

    /// <summary>The settings of the run.</summary>
    public required ImportContentionSettings Settings { get; init; }

    /// <summary>The durability tier both processes opened the store with.</summary>
    public required Durability Durability { get; init; }

    /// <summary>The ui's workload with no other process on the store, or <see langword="null"/> when it did not run.</summary>
    public WorkloadResult? UiAlone { get; init; }

    /// <summary>The ui's workload while the cli imported, or <see langword="null"/> when it did not run.</summary>
    public WorkloadResult? UiDuringImport { get; init; }

    /// <summary>The ui's last report: the batches it saw, when, and its acknowledged writes.</summary>
    public UiReport? Ui { get; init; }

    /// <summary>The cli's report: its acknowledged batches and when.</summary>
    public ImportReport? Import { get; init; }

    /// <summary>For a row where the cli cannot open the store beside the ui: the typed error it got.</summary>
    public OpenFailure? NotPossible { get; init; }

    /// <summary>Whether both workers' clocks were seen to be the parent's clock, so their timestamps compare.</summary>
    public bool ClockShared { get; init; }

    /// <summary>
    /// How long after the cli's PutMany returned the ui first read the batch, over every batch both saw;
    /// <see langword="null"/> when nothing was measured.
    /// </summary>
    public LatencySummary? VisibilityLag { get; init; }

    /// <summary>Acknowledged batches the ui found before the cli's PutMany had returned (counted as a lag of 0).</summary>
    public long SeenBeforeAcknowledged { get; init; }

    /// <summary>For the batches the ui found before the cli's PutMany had returned: how long before, from the two timestamps.</summary>
    public LatencySummary? SeenEarlyBy { get; init; }

    /// <summary>
    /// Where the cli's writer times its commits (SQLite's WAL hook): per batch, from the moment its commit was visible to
    /// other processes to PutMany's return in the cli; <see langword="null"/> for a row that cannot tell.
    /// </summary>
    public LatencySummary? CommitToAcknowledged { get; init; }

    /// <summary>
    /// Beside <see cref="CommitToAcknowledged"/>: the auto-checkpoints the cli's writer ran after a commit and before
    /// PutMany returned, one per batch that ran one (a count of 0 when none did).
    /// </summary>
    public LatencySummary? CommitCheckpoints { get; init; }

    /// <summary>
    /// Beside <see cref="CommitToAcknowledged"/>: from the moment the writer's commit hook returned (its auto-checkpoint
    /// done, where it ran one) to PutMany's return in the cli: the rest of PutMany, and any time the cli's thread was not on a core.
    /// </summary>
    public LatencySummary? HookToAcknowledged { get; init; }

    /// <summary>Where the cli's writer times its commits: the WAL's size after them, beside the size it checkpoints at.</summary>
    public CommitWal? CommitWal { get; init; }

    /// <summary>Where the cli's writer times its commits: where in the cli's PutMany each batch seen early was seen.</summary>
    public EarlySightings? SeenEarlyWhere { get; init; }

    /// <summary>Acknowledged batches the ui never saw before its deadline.</summary>
    public long Unseen { get; init; }

    /// <summary>The ui's records read back after both processes ended, each at the version last acknowledged (the loaded one if never written).</summary>
    public VerificationResult? UiReadBack { get; init; }

    /// <summary>Every record of every batch the cli acknowledged, read back after both processes ended.</summary>
    public VerificationResult? ImportReadBack { get; init; }

    /// <summary>What kept the run from measuring what it should (a worker that did not answer, a clock not shared), one line each.</summary>
    public IReadOnlyList<string> Problems { get; init; } = [];

    /// <summary>Every error that reached either process: store calls that threw, wrong reads, and an open that failed where it should not.</summary>
    public long Errors =>
        (UiAlone?.Errors ?? 0) + (UiAlone?.WrongReads ?? 0)
        + (UiDuringImport?.Errors ?? 0) + (UiDuringImport?.WrongReads ?? 0)
        + (Ui?.WatchErrorCount ?? 0) + (Ui?.WrongBatchValues ?? 0) + (Ui?.OpenFailure is null ? 0 : 1)
        + (Import?.ErrorCount ?? 0) + (Import?.OpenFailure is null || NotPossible is not null ? 0 : 1);

    /// <summary>Acknowledged writes of either process that were missing or held other bytes afterwards.</summary>
    public long Lost =>
        (UiReadBack?.Missing ?? 0) + (UiReadBack?.Wrong ?? 0) + (ImportReadBack?.Missing ?? 0) + (ImportReadBack?.Wrong ?? 0);

    /// <summary>Acknowledged writes read back: the ui's records and the cli's.</summary>
    public long ReadBack => (UiReadBack?.Checked ?? 0) + (ImportReadBack?.Checked ?? 0);

    /// <summary>Whether the run measured what it should, nothing reached either process as an error, and nothing acknowledged was lost.</summary>
    public bool Succeeded => Problems.Count == 0 && Errors == 0 && Lost == 0;

    /// <summary>What went wrong, in one line, or <see langword="null"/> when the run <see cref="Succeeded"/>.</summary>
    public string? Failure => Succeeded
        ? null
        : $"{Store} import contention: " +
            $"{string.Join(
                "; ",
                [.. Problems, .. ErrorLines(), .. Lost > 0 ? [$"{Lost:N0} of {ReadBack:N0} acknowledged writes lost"] : Array.Empty<string>()])}.";

    /// <summary>The first error each source reported.</summary>
    public IEnumerable<string> ErrorLines()
    {
        foreach ((string phase, WorkloadResult? run) in new[] { ("alone", UiAlone), ("during the import", UiDuringImport) })
        {
            if (run is { Succeeded: false })
            {
                yield return $"ui {phase}: {run.WrongReads:N0} wrong reads, {run.Errors:N0} errors" +
                    $"{(run.FirstError is null ? string.Empty : $" (first: {run.FirstError})")}";
            }
        }

        if (Ui is { WatchErrorCount: > 0 } or { WrongBatchValues: > 0 })
        {
            yield return $"ui looking for batches: {Ui.WatchErrorCount:N0} errors, {Ui.WrongBatchValues:N0} wrong " +
                $"values{(Ui.WatchErrors.Count > 0 ? $" (first: {Ui.WatchErrors[0]})" : string.Empty)}";
        }

        if (Ui?.OpenFailure is { } uiOpen)
        {
            yield return $"ui could not open the store: {uiOpen}";
        }

        if (Import is { ErrorCount: > 0 })
        {
            yield return $"cli: {Import.ErrorCount:N0} errors (first: {Import.Errors[0]})";
        }

        if (Import?.OpenFailure is { } cliOpen && NotPossible is null)
        {
            yield return $"cli could not open the store: {cliOpen}";
        }
    }
}

/// <summary>Where in the cli's PutMany the ui saw the batches it saw before PutMany returned, by the cli's commit timestamps.</summary>
/// <param name="BeforeHook">Seen before SQLite called the commit hook: the commit was already visible (SQLite writes the WAL index header first).</param>
/// <param name="DuringCheckpoint">Seen while the commit hook ran its auto-checkpoint.</param>
/// <param name="AfterHook">Seen after the commit hook returned (with or without a checkpoint) and before PutMany returned.</param>
public sealed record EarlySightings(long BeforeHook, long DuringCheckpoint, long AfterHook);

/// <summary>The frames in the WAL after the cli's timed commits.</summary>
/// <param name="AutoCheckpointFrames">The frames at which a commit of the cli's writer checkpoints.</param>
/// <param name="MedianFrames">The median over the commits.</param>
/// <param name="MaxFrames">The most after any commit.</param>
public sealed record CommitWal(int AutoCheckpointFrames, int MedianFrames, int MaxFrames);
