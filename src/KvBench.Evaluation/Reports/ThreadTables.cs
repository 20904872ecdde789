using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Sqlite;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// The thread sweep's tables: the rate at each thread count, what each operation cost, and the sentences that explain
/// a rate beyond the cores or a lone SQLite reader's extra system calls. The workload and SQLite sections both print
/// thread sweeps, so both call these.
/// </summary>
public static class ThreadTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>
    /// One line per row and mix: all operations per second at each thread count, then the p99 of the largest count; the
    /// <see cref="AcknowledgedTier"/> column as in the YCSB table.
    /// </summary>
    public static MarkdownTable Threads(IReadOnlyList<WorkloadResult> results, Durability? acknowledgedAt = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        int[] threadCounts = [.. results.Select(result => result.Settings.Threads).Distinct().Order()];
        var table = new MarkdownTable([
            .. WorkloadCells.RowColumns(acknowledgedAt), "Mix",
            .. threadCounts.Select(threads => string.Create(s_numbers, $"{threads} thread{(threads == 1 ? string.Empty : "s")} (ops/s)")),
            string.Create(s_numbers, $"p99 at {threadCounts.LastOrDefault()} threads"), "Wrong reads"]);
        foreach (IGrouping<(string Store, string Mix), WorkloadResult> group in results.GroupBy(result => (result.Store, result.Workload.Name)))
        {
            WorkloadResult? widest = group.MaxBy(result => result.Settings.Threads);
            table.Add([
                .. WorkloadCells.RowCells(group.Key.Store, acknowledgedAt),
                group.Key.Mix,
                .. threadCounts.Select(threads =>
                    group.FirstOrDefault(result => result.Settings.Threads == threads) is { } result
                        ? WorkloadCells.Rate(result.OperationsPerSecond)
                        : "-"),
                widest is null
                    ? "-"
                    : string.Join(
                        " / ",
                        widest.Operations.Select(operation =>
                            $"{operation.Type} {WorkloadCells.Latency(operation.Latency, static latency => latency.P99)}")),
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
                WorkloadCells.Rate(result.OperationsPerSecond),
                WorkloadCells.CpuPerOperation(result),
                WorkloadCells.SystemCpuPerOperation(result),
                WorkloadCells.SystemCallsPerOperation(result),
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
        string cpu = $"CPU {WorkloadCells.CpuPerOperation(one)} → {WorkloadCells.CpuPerOperation(many)} per operation";
        string calls = $"{WorkloadCells.SystemCallsPerOperation(one)} → {WorkloadCells.SystemCallsPerOperation(many)} system calls";
        string busyOne = oneCost.CoresBusy.ToString("0.00", s_numbers);
        string busyMany = manyCost.CoresBusy.ToString("0.00", s_numbers);

        // Compared as printed, so that the words never contradict the figures beside them.
        double cpuOne = one.CpuMicrosecondsPerOperation ?? 0;
        double cpuMany = many.CpuMicrosecondsPerOperation ?? 0;
        if (WorkloadCells.CpuPerOperation(one) != WorkloadCells.CpuPerOperation(many) && cpuMany < cpuOne)
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
                $"{group.Key} ({one.Workload.Name}): a lone reader made {WorkloadCells.SystemCallsPerOperation(one)} system calls " +
                    $"per read ({WorkloadCells.CpuPerOperation(one)} of CPU{InTheKernel(one)}), against " +
                    $"{WorkloadCells.SystemCallsPerOperation(most)} ({WorkloadCells.CpuPerOperation(most)}{InTheKernel(most)}) at " +
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

    /// <summary>
    /// ", 12 µs of it in the kernel" where the split rests on enough timer samples (see
    /// <see cref="ProcessCost.SplitIsSampledEnough"/>); nothing where it does not.
    /// </summary>
    private static string InTheKernel(WorkloadResult result) =>
        result.Cost is { SplitIsSampledEnough: true } ? $", {WorkloadCells.SystemCpuPerOperation(result)} of it in the kernel" : string.Empty;
}
