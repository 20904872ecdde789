using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Sqlite;

namespace KvBench.Evaluation.Reports;

/// <summary>The workload suites' results as the markdown tables the CLI prints and the ADR file carries.</summary>
public static class WorkloadTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>
    /// One line per row, workload and operation: ops/s of that operation, its latency percentiles (p50 to max), and wrong
    /// reads. With <paramref name="acknowledgedAt"/>, the tier the rows ran at, an <see cref="AcknowledgedTier"/> column
    /// says what each row's acknowledged write had reached, so rows at different effective tiers are never set side by
    /// side unmarked.
    /// </summary>
    public static MarkdownTable Ycsb(IEnumerable<WorkloadResult> results, Durability? acknowledgedAt = null)
    {
        var table = new MarkdownTable(
            [
                .. RowColumns(acknowledgedAt), "Workload", "Threads", "Operation", "ops/s", "p50", "p95", "p99",
                "p99.9", "max", "run CPU/op", "run syscalls/op", "Wrong reads", "Errors"]);
        foreach (WorkloadResult result in results)
        {
            foreach (OperationResult operation in result.Operations)
            {
                table.Add([
                    .. RowCells(result.Store, acknowledgedAt),
                    result.Workload.Name,
                    result.Settings.Threads.ToString(s_numbers),
                    operation.Type.ToString(),
                    Rate(operation.OperationsPerSecond),
                    Latency(operation.Latency, static latency => latency.P50),
                    Latency(operation.Latency, static latency => latency.P95),
                    Latency(operation.Latency, static latency => latency.P99),
                    Latency(operation.Latency, static latency => latency.P999),
                    Latency(operation.Latency, static latency => latency.Max),
                    CpuPerOperation(result),
                    SystemCallsPerOperation(result),
                    result.WrongReads.ToString("N0", s_numbers),
                    result.Errors.ToString("N0", s_numbers)]);
            }
        }

        return table;
    }

    /// <summary>
    /// One line per row and mix: all operations per second at each thread count, then the p99 of the largest count; the
    /// <see cref="AcknowledgedTier"/> column as in <see cref="Ycsb"/>.
    /// </summary>
    public static MarkdownTable Threads(IReadOnlyList<WorkloadResult> results, Durability? acknowledgedAt = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        int[] threadCounts = [.. results.Select(result => result.Settings.Threads).Distinct().Order()];
        var table = new MarkdownTable([
            .. RowColumns(acknowledgedAt), "Mix",
            .. threadCounts.Select(threads => string.Create(s_numbers, $"{threads} thread{(threads == 1 ? string.Empty : "s")} (ops/s)")),
            string.Create(s_numbers, $"p99 at {threadCounts.LastOrDefault()} threads"), "Wrong reads"]);
        foreach (IGrouping<(string Store, string Mix), WorkloadResult> group in results.GroupBy(result => (result.Store, result.Workload.Name)))
        {
            WorkloadResult? widest = group.MaxBy(result => result.Settings.Threads);
            table.Add([
                .. RowCells(group.Key.Store, acknowledgedAt),
                group.Key.Mix,
                .. threadCounts.Select(threads =>
                    group.FirstOrDefault(result => result.Settings.Threads == threads) is { } result
                        ? Rate(result.OperationsPerSecond)
                        : "-"),
                widest is null
                    ? "-"
                    : string.Join(
                        " / ",
                        widest.Operations.Select(operation =>
                            $"{operation.Type} {Latency(operation.Latency, static latency => latency.P99)}")),
                group.Sum(result => result.WrongReads).ToString("N0", s_numbers)]);
        }

        return table;
    }

    /// <summary>
    /// What each operation of the thread sweep cost the process, one line per row, mix and thread count: the rate, CPU
    /// time per operation (user and system; every thread of the process), of it in the kernel, system calls per
    /// operation (the run's threads, counted by the kernel) and how many of the machine's cores the process kept busy.
    /// </summary>
    public static MarkdownTable ThreadCosts(IEnumerable<WorkloadResult> results)
    {
        var table = new MarkdownTable("Row", "Mix", "Threads", "ops/s", "CPU/op", "of it system", "syscalls/op", "cores busy");
        // In the order the rows and mixes first appear (the catalog's), each one's thread counts ascending.
        foreach (WorkloadResult result in results
            .GroupBy(result => (result.Store, result.Workload.Name))
            .SelectMany(group => group.OrderBy(result => result.Settings.Threads)))
        {
            table.Add(
                result.Store,
                result.Workload.Name,
                result.Settings.Threads.ToString(s_numbers),
                Rate(result.OperationsPerSecond),
                CpuPerOperation(result),
                SystemCpuPerOperation(result),
                SystemCallsPerOperation(result),
                result.Cost is { } busy ? string.Create(s_numbers, $"{busy.CoresBusy:0.00} of {busy.Cores}") : "-");
        }

        return table;
    }

    /// <summary>
    /// One sentence per row and mix whose rate grew faster than the cores it could use (at T threads on C cores, more
    /// than min(T, C) times its one-thread rate), naming what each operation cost at both ends, so no such figure stands
    /// unexplained; empty when none did.
    /// </summary>
    public static IReadOnlyList<string> FasterThanCores(IEnumerable<WorkloadResult> results)
    {
        List<string> lines = [];
        foreach (IGrouping<(string Store, string Mix), WorkloadResult> group in results.GroupBy(result => (result.Store, result.Workload.Name)))
        {
            WorkloadResult? one = group.FirstOrDefault(result => result.Settings.Threads == 1);
            if (one is not { OperationsPerSecond: > 0, Cost: { } oneCost })
            {
                continue;
            }

            foreach (WorkloadResult many in group
                .Where(result => result.Settings.Threads > 1 && result.Cost is not null)
                .OrderBy(result => result.Settings.Threads))
            {
                int usable = Math.Min(many.Settings.Threads, oneCost.Cores);
                double growth = many.OperationsPerSecond / one.OperationsPerSecond;
                if (growth <= usable)
                {
                    continue;
                }

                lines.Add(
                    string.Create(
                        s_numbers,
                        $"{group.Key.Store} ({group.Key.Mix}) ran {growth:0.0}x its one-thread rate at " +
                            $"{many.Settings.Threads} threads on {oneCost.Cores} cores, where more threads can give " +
                            $"at most {usable}x: {WhyFasterThanCores(one, many)}."));
            }
        }

        return lines;
    }

    /// <summary>
    /// What the cost columns say about a rate that grew faster than the cores, worded from the figures it quotes: less
    /// CPU time per operation only where the printed CPU/op fell, and otherwise the cores the process kept busy, which
    /// must then have grown (a thread that waits leaves its core to another).
    /// </summary>
    private static string WhyFasterThanCores(WorkloadResult one, WorkloadResult many)
    {
        ProcessCost oneCost = one.Cost!;
        ProcessCost manyCost = many.Cost!;
        string cpu = $"CPU {CpuPerOperation(one)} → {CpuPerOperation(many)} per operation";
        string calls = $"{SystemCallsPerOperation(one)} → {SystemCallsPerOperation(many)} system calls";
        string busyOne = oneCost.CoresBusy.ToString("0.00", s_numbers);
        string busyMany = manyCost.CoresBusy.ToString("0.00", s_numbers);

        // Compared as printed, so that the words never contradict the figures beside them.
        double cpuOne = one.CpuMicrosecondsPerOperation ?? 0;
        double cpuMany = many.CpuMicrosecondsPerOperation ?? 0;
        if (CpuPerOperation(one) != CpuPerOperation(many) && cpuMany < cpuOne)
        {
            return string.Create(s_numbers, $"each operation cost less CPU time, {cpu} and {calls} ({busyOne} → {busyMany} cores busy)");
        }

        string text = string.Create(s_numbers, $"each operation cost no less CPU time ({cpu}, {calls})");
        if (double.Parse(busyMany, s_numbers) > double.Parse(busyOne, s_numbers))
        {
            text += $", but the process kept more of the cores busy, {busyOne} → {busyMany}";
            if (double.Parse(busyOne, s_numbers) < 1)
            {
                text += ": at one thread it kept under one core busy, so its one thread waited part of the time (on " +
                    "its server, the device or a lock), and more threads wait at once";
            }
        }
        else
        {
            text += $" ({busyOne} → {busyMany} cores busy)";
        }

        return text;
    }

    /// <summary>
    /// One paragraph per SQLite row in WAL with a connection per reading thread whose read-only run made more system calls
    /// per read at one thread than at its most threads: both figures, and why a lone reader pays more; empty when none did.
    /// </summary>
    public static IReadOnlyList<string> LoneSqliteReader(IEnumerable<WorkloadResult> results)
    {
        List<string> lines = [];
        foreach (IGrouping<string, WorkloadResult> group in results
            .Where(result =>
                ReadsOnConnectionPerThreadInWal(result.Store)
                    && result.Workload.Mix == OperationMix.ReadOnly
                    && result.SystemCallsPerOperation is not null)
            .GroupBy(result => result.Store))
        {
            WorkloadResult? one = group.FirstOrDefault(result => result.Settings.Threads == 1);
            WorkloadResult most = group.MaxBy(result => result.Settings.Threads)!;
            if (one is null || most.Settings.Threads == 1 || one.SystemCallsPerOperation <= most.SystemCallsPerOperation)
            {
                continue;
            }

            lines.Add(string.Create(
                s_numbers,
                $"{group.Key} ({one.Workload.Name}): a lone reader made {SystemCallsPerOperation(one)} system calls " +
                    $"per read ({CpuPerOperation(one)} of CPU{InTheKernel(one)}), against " +
                    $"{SystemCallsPerOperation(most)} ({CpuPerOperation(most)}{InTheKernel(most)}) at " +
                    $"{most.Settings.Threads} threads. ")
                + "Every read is a transaction of its own, and in WAL each one takes a shared POSIX lock (fcntl " +
                    "F_SETLK) on a read-mark byte of the -shm file when it starts and drops it when it ends: that " +
                    "lock is how SQLite tells the checkpointer and the next writer, in any process, which WAL frames " +
                    "a reader may still need. "
                + "SQLite's unix VFS keeps one such lock per process and file and counts its holders, so while one " +
                    "of the process's connections holds it another takes and drops it without a system call: with " +
                    "several readers one nearly always holds it, and a lone reader pays the pair on every read. "
                + "Where no commit has reached the WAL since the -shm file was set up, a read also pays an fstat of " +
                    "the database file, whose size the WAL index does not hold yet. "
                + "Keeping an idle connection in a read transaction would hold the lock for the lone reader, but a " +
                    "held read mark keeps checkpoints from copying frames back (past its snapshot, or at all while " +
                    "the WAL was empty when it was taken) and the WAL from starting over, so the WAL would grow for " +
                    "as long as it is held; the adapter does not do it.");
        }

        return lines;
    }

    /// <summary>
    /// Whether <paramref name="store"/> is a catalog row of SQLite in WAL with a read connection per thread
    /// (<see cref="SqliteRow.ReadsOnConnectionPerThreadInWal"/>).
    /// </summary>
    private static bool ReadsOnConnectionPerThreadInWal(string store) =>
        StoreCatalog.AllNames.Contains(store, StringComparer.OrdinalIgnoreCase)
            && StoreCatalog.Row(store) is SqliteRow { ReadsOnConnectionPerThreadInWal: true };

    /// <summary>
    /// <see cref="ThreadCosts"/> under a line that introduces it, then the <see cref="FasterThanCores"/> and
    /// <see cref="LoneSqliteReader"/> sentences, so every thread table that can show a rate beyond the cores, or a lone
    /// SQLite reader's extra system calls, carries its explanation.
    /// </summary>
    public static void WriteThreadCosts(StringBuilder output, IReadOnlyList<WorkloadResult> results)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.AppendLine("What each operation cost at each thread count (CPU and system calls over the measured window, per operation):").AppendLine();
        ThreadCosts(results).WriteTo(output);
        IReadOnlyList<string> fasterThanCores = FasterThanCores(results);
        if (fasterThanCores.Count > 0)
        {
            output.AppendLine("Rates that grew faster than the cores, and what the columns above say about why:").AppendLine();
            foreach (string line in fasterThanCores)
            {
                output.AppendLine($"- {line}");
            }

            output.AppendLine();
        }

        foreach (string line in LoneSqliteReader(results))
        {
            output.AppendLine(line).AppendLine();
        }
    }

    /// <summary>The row's column, and the <see cref="AcknowledgedTier"/> column beside it when the tier is known.</summary>
    private static string[] RowColumns(Durability? acknowledgedAt) => acknowledgedAt is null ? ["Row"] : ["Row", AcknowledgedTier.ColumnName];

    private static string[] RowCells(string row, Durability? acknowledgedAt) => acknowledgedAt is { } tier ? [row, AcknowledgedTier.Label(row, tier)] : [row];

    /// <summary>Why system calls were not counted in <paramref name="results"/>, or <see langword="null"/> when every run counted them.</summary>
    public static string? SystemCallsUnmeasured(IEnumerable<WorkloadResult> results) =>
        results.Select(result => result.Cost?.SystemCallsUnmeasured).FirstOrDefault(reason => reason is not null);

    /// <summary>
    /// One line per row and record count: load rate, bytes per record, and the median Get, Put and 100-record scan; the
    /// <see cref="AcknowledgedTier"/> column as in <see cref="Ycsb"/>.
    /// </summary>
    public static MarkdownTable Scale(IEnumerable<ScalePoint> points, Durability? acknowledgedAt = null)
    {
        var table = new MarkdownTable(
            [
                .. RowColumns(acknowledgedAt), "Records", "Load (records/s)", "Bytes on disk per record", "Get p50",
                "Put p50", "Scan 1-100 p50", "Get CPU/op", "Get syscalls/op", "Put CPU/op", "Put syscalls/op",
                "Wrong reads"]);
        foreach (ScalePoint point in points)
        {
            table.Add([
                .. RowCells(point.Store, acknowledgedAt),
                point.Records.ToString("N0", s_numbers),
                Rate(point.LoadRecordsPerSecond),
                point.BytesOnDisk == 0 ? "-" : point.BytesPerRecord.ToString("N0", s_numbers),
                Latency(point.Get.Of(OperationType.Read)?.Latency, static latency => latency.P50),
                Latency(point.Put.Of(OperationType.Update)?.Latency, static latency => latency.P50),
                Latency(point.Scan.Of(OperationType.Scan)?.Latency, static latency => latency.P50),
                CpuPerOperation(point.Get),
                SystemCallsPerOperation(point.Get),
                CpuPerOperation(point.Put),
                SystemCallsPerOperation(point.Put),
                (point.Get.WrongReads + point.Put.WrongReads + point.Scan.WrongReads).ToString("N0", s_numbers)]);
        }

        return table;
    }

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
                result.Import is { OpenFailure: null } import ? Rate(import.RecordsPerSecond) : "-",
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
                        Rate(operation.OperationsPerSecond),
                        Latency(operation.Latency, static latency => latency.P50),
                        Latency(operation.Latency, static latency => latency.P99),
                        Latency(operation.Latency, static latency => latency.P999),
                        Latency(operation.Latency, static latency => latency.Max));
                }
            }
        }

        return table;
    }

    /// <summary>The row, and the shape the store allowed where it is not two processes reading and writing.</summary>
    private static string ContentionRow(ImportContentionResult result) => result.UiAccess == StoreAccess.ReadWrite
        ? result.Store
        : $"{result.Store} (cli the one writer, ui reads as {result.UiAccess}" +
            $"{(result.Ui?.WriteRefusedWith is { } refused ? $"; its write got {refused}" : string.Empty)})";

    /// <summary>"Read 45 µs / Update 1.2 ms".</summary>
    private static string PerOperation(WorkloadResult? run, Func<LatencySummary, double> pick) =>
        run is null ? "-" : string.Join(" / ", run.Operations.Select(operation => $"{operation.Type} {Latency(operation.Latency, pick)}"));

    private static string LagCell(ImportContentionResult result)
    {
        if (result.VisibilityLag is not { } lag)
        {
            return result.ClockShared ? "not measured" : "not measured (clocks not shared)";
        }

        string cell = $"{Latency(lag.P50)} / {Latency(lag.Max)}";
        if (result.SeenBeforeAcknowledged > 0)
        {
            string by = result.SeenEarlyBy is { } early ? $", by {Latency(early.P50)} p50 and {Latency(early.Max)} at most" : string.Empty;
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

        string cell = $"{Latency(afterCommit.P50)} / {Latency(afterCommit.Max)}";
        string batches = afterCommit.Count.ToString("N0", s_numbers);
        return result.CommitCheckpoints is { Count: > 0 } checkpoints
            ? $"{cell} (auto-checkpoint in {checkpoints.Count.ToString("N0", s_numbers)} of {batches} batches: p50 " +
                $"{Latency(checkpoints.P50)}, max {Latency(checkpoints.Max)})"
            : $"{cell} (no auto-checkpoint in {batches} batches)";
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
                    $"{(result.SeenEarlyBy is { } by ? $", by {Latency(by.P50)} p50 and {Latency(by.Max)} at most" : string.Empty)}" +
                    $". ");
            text.Append(
                s_numbers,
                $"The cli's writer timed each commit: it was visible {Latency(afterCommit.P50)} p50 (" +
                    $"{Latency(afterCommit.Max)} at most) before PutMany returned; ");
            text.Append(checkpointed > 0
                ? $"{checkpointed.ToString("N0", s_numbers)} of {batches} commits ran an auto-checkpoint in SQLite's " +
                    $"commit hook ({Latency(result.CommitCheckpoints!.P50)} p50, " +
                    $"{Latency(result.CommitCheckpoints.Max)} at most), "
                : $"none of {batches} commits ran an auto-checkpoint, ");
            text.Append(s_numbers, $"and once the hook had returned PutMany took {Latency(afterHook.P50)} p50 ({Latency(afterHook.Max)} at most) more. ");
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

    private static string ContentionErrors(ImportContentionResult result) =>
        result.Errors == 0 ? "0" : $"{result.Errors.ToString("N0", s_numbers)}: {string.Join("; ", result.ErrorLines())}";

    /// <summary>
    /// One statistic of <paramref name="latency"/> as <see cref="Latency(double?)"/> prints it; "none completed" when no
    /// operation of the kind completed in the window (a starved reader), where a statistic of nothing would print 0 ns.
    /// </summary>
    public static string Latency(LatencySummary? latency, Func<LatencySummary, double> pick)
    {
        ArgumentNullException.ThrowIfNull(pick);
        return latency is null ? "-" : latency.Count == 0 ? "none completed" : Latency(pick(latency));
    }

    /// <summary>"850 ns", "12.3 µs", "4.56 ms": three significant figures, a histogram bucket being 0.8% wide.</summary>
    public static string Latency(double? nanoseconds) => nanoseconds switch
    {
        null => "-",
        < 1_000 => string.Create(s_numbers, $"{nanoseconds:0} ns"),
        < 1_000_000 => string.Create(s_numbers, $"{nanoseconds / 1_000:0.##} µs"),
        _ => string.Create(s_numbers, $"{nanoseconds / 1_000_000:0.##} ms"),
    };

    /// <summary>
    /// ", 12 µs of it in the kernel" where the split rests on enough timer samples (see
    /// <see cref="ProcessCost.SplitIsSampledEnough"/>); nothing where it does not.
    /// </summary>
    private static string InTheKernel(WorkloadResult result) =>
        result.Cost is { SplitIsSampledEnough: true } ? $", {SystemCpuPerOperation(result)} of it in the kernel" : string.Empty;

    /// <summary>The system share of CPU/op, where the split rests on enough timer samples; otherwise how little it had.</summary>
    internal static string SystemCpuPerOperation(WorkloadResult result) => result.Cost switch
    {
        null => "-",
        { SplitIsSampledEnough: true } cost => Latency(cost.SystemMicrosecondsPerOperation(result.OperationsPerSecond) * 1_000),
        { SplitCpuSeconds: { } sampled } => string.Create(s_numbers, $"unsplit ({sampled * 1_000:0} ms of CPU)"),
        _ => "unsplit",
    };

    private static string CpuPerOperation(WorkloadResult result) => result.CpuMicrosecondsPerOperation is { } micros ? Latency(micros * 1_000) : "-";

    private static string SystemCallsPerOperation(WorkloadResult result) =>
        result.SystemCallsPerOperation is { } calls ? calls.ToString(calls < 10 ? "0.00" : "N0", s_numbers) : "-";

    private static string Rate(double perSecond) => perSecond.ToString("N0", s_numbers);
}
