using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports.Sections.Contention;

/// <summary>The contention section's tables and findings, which <c>kvbench contend</c> prints too.</summary>
public static class ContentionTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>
    /// The import-contention table, one line per row: the ui's p99 per operation alone and during the cli's import, its
    /// largest latency during the import, the cli's records per second, the visibility lag, what the cli's PutMany did
    /// after its commit was visible (where the row can tell), errors and lost writes.
    /// </summary>
    public static MarkdownTable Contention(IEnumerable<ImportContentionResult> results)
    {
        var table = new MarkdownTable(
            "Row",
            "ui p99 alone",
            "ui p99 during import",
            "ui max during import",
            "cli records/s",
            "visibility lag p50 / max",
            "cli commit visible → PutMany returned p50 / max",
            "errors",
            "lost");
        foreach (ImportContentionResult result in results)
        {
            string lost = $"{result.Lost.ToString("N0", s_numbers)} of {result.ReadBack.ToString("N0", s_numbers)}";
            if (result.NotPossible is { } refused)
            {
                string notPossible = $"not possible: the cli's open got {refused.Error}";
                table.Add(
                    ContentionRow(result),
                    PerOperation(result.UiAlone, latency => latency.P99),
                    notPossible,
                    "-",
                    "-",
                    "-",
                    "-",
                    ContentionErrors(result),
                    lost);
                continue;
            }

            table.Add(
                ContentionRow(result),
                PerOperation(result.UiAlone, latency => latency.P99),
                PerOperation(result.UiDuringImport, latency => latency.P99),
                PerOperation(result.UiDuringImport, latency => latency.Max),
                result.Import is { OpenFailure: null } import ? WorkloadCells.Rate(import.RecordsPerSecond) : "-",
                LagCell(result),
                AfterCommitCell(result),
                ContentionErrors(result),
                lost);
        }

        return table;
    }

    /// <summary>The ui's latencies behind <see cref="Contention"/>: one line per row, phase and operation, p50 to max and the rate achieved.</summary>
    public static MarkdownTable ContentionLatencies(IEnumerable<ImportContentionResult> results)
    {
        var table = new MarkdownTable("Row", "ui phase", "Operation", "ops/s", "p50", "p99", "p99.9", "max");
        foreach (ImportContentionResult result in results)
        {
            foreach ((string phase, WorkloadResult? run) in new[] { ("alone", result.UiAlone), ("during import", result.UiDuringImport) })
            {
                foreach (OperationResult operation in run?.Operations ?? [])
                {
                    table.Add(
                        result.Store,
                        phase,
                        operation.Type.ToString(),
                        WorkloadCells.Rate(operation.OperationsPerSecond),
                        WorkloadCells.Latency(operation.Latency, static latency => latency.P50),
                        WorkloadCells.Latency(operation.Latency, static latency => latency.P99),
                        WorkloadCells.Latency(operation.Latency, static latency => latency.P999),
                        WorkloadCells.Latency(operation.Latency, static latency => latency.Max));
                }
            }
        }

        return table;
    }

    /// <summary>
    /// What the measured values say about the batches the ui saw before the cli's PutMany returned, one paragraph per row
    /// whose writer times its commits; nothing for a row that cannot tell.
    /// </summary>
    public static IEnumerable<string> ContentionFindings(IEnumerable<ImportContentionResult> results)
    {
        foreach (ImportContentionResult result in results)
        {
            if (result is not { CommitToAcknowledged: { } afterCommit, HookToAcknowledged: { } afterHook, SeenEarlyWhere: { } where })
            {
                continue;
            }

            string batches = afterCommit.Count.ToString("N0", s_numbers);
            long checkpointed = result.CommitCheckpoints?.Count ?? 0;
            var text = new StringBuilder(result.Store).Append(": ");
            text.Append(result.SeenBeforeAcknowledged == 0
                ? $"no batch of {batches} was seen before the cli's PutMany returned. "
                : $"{result.SeenBeforeAcknowledged.ToString("N0", s_numbers)} of {batches} batches were seen before " +
                    $"the cli's PutMany returned" +
                    $"{(result.SeenEarlyBy is { } by
                        ? $", by {WorkloadCells.Latency(by.P50)} p50 and {WorkloadCells.Latency(by.Max)} at most"
                        : string.Empty)}" +
                    $". ");
            text.Append(
                s_numbers,
                $"The cli's writer timed each commit: it was visible {WorkloadCells.Latency(afterCommit.P50)} p50 (" +
                    $"{WorkloadCells.Latency(afterCommit.Max)} at most) before PutMany returned; ");
            text.Append(checkpointed > 0
                ? $"{checkpointed.ToString("N0", s_numbers)} of {batches} commits ran an auto-checkpoint in SQLite's " +
                    $"commit hook ({WorkloadCells.Latency(result.CommitCheckpoints!.P50)} p50, " +
                    $"{WorkloadCells.Latency(result.CommitCheckpoints.Max)} at most), "
                : $"none of {batches} commits ran an auto-checkpoint, ");
            text.Append(
                s_numbers,
                $"and once the hook had returned PutMany took {WorkloadCells.Latency(afterHook.P50)} p50 (" +
                    $"{WorkloadCells.Latency(afterHook.Max)} at most) more. ");
            if (result.SeenBeforeAcknowledged > 0)
            {
                text.Append(
                    s_numbers,
                    $"Of the batches seen early, {where.DuringCheckpoint:N0} were seen while the hook checkpointed, " +
                        $"{where.AfterHook:N0} after it had returned and {where.BeforeHook:N0} before SQLite called " +
                        $"it (a commit is visible once SQLite has written the WAL index header, a little before the " +
                        $"hook): ");
                text.Append(where.DuringCheckpoint * 2 > result.SeenBeforeAcknowledged
                    ? "the auto-checkpoint, which runs inside the committing PutMany after the commit is visible, explains most of them. "
                    : $"{(where.DuringCheckpoint > 0
                        ? "the auto-checkpoint explains only some of them; most"
                        : "the auto-checkpoint explains none of them; they")}" +
                        $" fell in the plain time between the commit becoming visible and PutMany returning, which " +
                        $"the ui, looking every " +
                        $"{result.Settings.PollInterval.TotalMilliseconds.ToString("0.#", s_numbers)} ms from the " +
                        $"other process on {Environment.ProcessorCount} logical cores, catches whenever a look falls " +
                        $"in it. ");
            }

            if (checkpointed > 0 && result.CommitWal is { AutoCheckpointFrames: > 0 } wal)
            {
                text.Append(
                    s_numbers,
                    $"The WAL held {wal.MedianFrames:N0} frames after the median commit ({wal.MaxFrames:N0} at most) " +
                        $"against the writer's threshold of {wal.AutoCheckpointFrames:N0}");
                text.Append(wal.MedianFrames >= wal.AutoCheckpointFrames
                    ? ": SQLite starts the WAL over only when a writer begins after a checkpoint has copied every " +
                        "frame and no other connection is reading from the WAL, which seldom held while the ui read " +
                        "and wrote, so the WAL stayed over the threshold and every commit over it checkpointed " +
                        "again, syncing the WAL and the database file each time."
                    : ", so only the commits that took it over the threshold checkpointed.");
            }

            yield return text.ToString().TrimEnd();
        }
    }

    /// <summary>The row, and the shape the store allowed where it is not two processes reading and writing.</summary>
    private static string ContentionRow(ImportContentionResult result) => result.UiAccess == StoreAccess.ReadWrite
        ? result.Store
        : $"{result.Store} (cli the one writer, ui reads as {result.UiAccess}" +
            $"{(result.Ui?.WriteRefusedWith is { } refused ? $"; its write got {refused}" : string.Empty)})";

    /// <summary>"Read 45 µs / Update 1.2 ms".</summary>
    private static string PerOperation(WorkloadResult? run, Func<LatencySummary, double> pick) =>
        run is null ? "-" : string.Join(" / ", run.Operations.Select(operation => $"{operation.Type} {WorkloadCells.Latency(operation.Latency, pick)}"));

    private static string LagCell(ImportContentionResult result)
    {
        if (result.VisibilityLag is not { } lag)
        {
            return result.ClockShared ? "not measured" : "not measured (clocks not shared)";
        }

        string cell = $"{WorkloadCells.Latency(lag.P50)} / {WorkloadCells.Latency(lag.Max)}";
        if (result.SeenBeforeAcknowledged > 0)
        {
            string by = result.SeenEarlyBy is { } early
                ? $", by {WorkloadCells.Latency(early.P50)} p50 and {WorkloadCells.Latency(early.Max)} at most"
                : string.Empty;
            cell += $" ({result.SeenBeforeAcknowledged.ToString("N0", s_numbers)} of " +
                $"{(lag.Count + result.Unseen).ToString("N0", s_numbers)} batches seen before the cli's PutMany " +
                $"returned{by}, each counted as a lag of 0)";
        }

        return result.Unseen > 0 ? $"{cell} ({result.Unseen.ToString("N0", s_numbers)} batches never seen)" : cell;
    }

    /// <summary>"12 µs / 9.1 ms (auto-checkpoint in 3 of 55 batches: p50 8.2 ms, max 9 ms)", or "-" where the row does not time its commits.</summary>
    private static string AfterCommitCell(ImportContentionResult result)
    {
        if (result.CommitToAcknowledged is not { } afterCommit)
        {
            return "-";
        }

        string cell = $"{WorkloadCells.Latency(afterCommit.P50)} / {WorkloadCells.Latency(afterCommit.Max)}";
        string batches = afterCommit.Count.ToString("N0", s_numbers);
        return result.CommitCheckpoints is { Count: > 0 } checkpoints
            ? $"{cell} (auto-checkpoint in {checkpoints.Count.ToString("N0", s_numbers)} of {batches} batches: p50 " +
                $"{WorkloadCells.Latency(checkpoints.P50)}, max {WorkloadCells.Latency(checkpoints.Max)})"
            : $"{cell} (no auto-checkpoint in {batches} batches)";
    }

    private static string ContentionErrors(ImportContentionResult result) =>
        result.Errors == 0 ? "0" : $"{result.Errors.ToString("N0", s_numbers)}: {string.Join("; ", result.ErrorLines())}";
}
