using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>CPU time and system calls per operation: counted for real, and the thread table's sentence where a rate outgrows the cores.</summary>
public sealed class ProcessCostTests
{
    private static readonly WorkloadSpec s_reads = new() { Name = "read-only", Mix = new OperationMix { Read = 1 }, RecordCount = 100 };

    [Fact]
    public void The_system_call_counter_counts_the_calls_of_a_thread_started_after_it_opened()
    {
        using SystemCallCounter? counter = SystemCallCounter.TryOpen(out string? reason);
        if (!OperatingSystem.IsLinux() || Environment.UserName != "root")
        {
            // Only root (or a lowered perf_event_paranoid) may count a tracepoint: elsewhere the reason must say why.
            Assert.True(counter is not null || !string.IsNullOrWhiteSpace(reason));
            return;
        }

        Assert.True(counter is not null, reason);
        long before = counter.Read();

        // Thread.Yield is sched_yield(2) on Linux: one system call each, made on a thread the counter inherits into.
        var yielder = new Thread(() =>
        {
            for (int i = 0; i < 5_000; i++)
            {
                Thread.Yield();
            }
        });
        yielder.Start();
        yielder.Join();

        Assert.InRange(counter.Read() - before, 5_000, long.MaxValue);
    }

    [Fact]
    public void A_run_carries_its_cpu_time_and_system_calls_per_operation()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        WorkloadRunner.Load(store, s_reads);

        WorkloadResult result = WorkloadRunner.Run(
            store,
            s_reads,
            new RunSettings { Threads = 2, Warmup = TimeSpan.FromMilliseconds(100), Duration = TimeSpan.FromMilliseconds(300) });

        ProcessCost cost = Assert.IsType<ProcessCost>(result.Cost);
        Assert.True(cost.WallSeconds > 0 && cost.UserSeconds + cost.SystemSeconds > 0, $"{cost}");
        Assert.True(result.CpuMicrosecondsPerOperation > 0);
        Assert.Equal(Environment.ProcessorCount, cost.Cores);
        Assert.True(cost.SystemCalls is not null || cost.SystemCallsUnmeasured is not null);
    }

    [Fact]
    public void A_window_late_in_a_long_process_takes_its_split_from_the_run_threads_not_from_the_process_lifetime_ratio()
    {
        // The process's earlier life: its ticks caught half of its runtime, three in five of them in user mode.
        var process = new TickAccounting();
        process.Run(runtime: 100, userTicks: 30, systemTicks: 20);
        CpuSplit atStart = process.Read();

        // The window: one fresh run thread, a quarter of its time in user mode by its ticks, all of it in the process too.
        var runThread = new TickAccounting();
        runThread.Run(runtime: 0.18, userTicks: 0.05, systemTicks: 0.15);
        process.Run(runtime: 0.18, userTicks: 0.05, systemTicks: 0.15);
        CpuSplit atEnd = process.Read();

        // What the kernel's rule gives the process's two readings: the window's user time is swallowed by the clamp.
        Assert.Equal(0, atEnd.UserSeconds - atStart.UserSeconds, precision: 9);
        Assert.Equal(0.18, atEnd.SystemSeconds - atStart.SystemSeconds, precision: 9);

        var start = new ProcessCostSample(
            Timestamp: 0,
            TimeSpan.FromSeconds(atStart.UserSeconds),
            TimeSpan.FromSeconds(atStart.SystemSeconds),
            SystemCalls: null,
            AllocatedBytes: 0);
        var end = new ProcessCostSample(
            Timestamp: System.Diagnostics.Stopwatch.Frequency,
            TimeSpan.FromSeconds(atEnd.UserSeconds),
            TimeSpan.FromSeconds(atEnd.SystemSeconds),
            SystemCalls: null,
            AllocatedBytes: 0);
        ProcessCost cost = start.Until(end, systemCallsUnmeasured: "not counted here", runThreads: runThread.Read());

        Assert.Equal(0.045, cost.UserSeconds, precision: 6);
        Assert.Equal(0.135, cost.SystemSeconds, precision: 6);
        Assert.Equal(0.18, cost.UserSeconds + cost.SystemSeconds, precision: 6);
    }

    [Fact]
    public void The_window_keeps_the_process_total_and_takes_the_run_threads_proportion()
    {
        CpuSplit split = ProcessCost.SplitWindow(new CpuSplit(0, 0.2), runThreads: new CpuSplit(0.3, 0.1));

        Assert.Equal(0.15, split.UserSeconds, precision: 9);
        Assert.Equal(0.05, split.SystemSeconds, precision: 9);

        // Where the run threads could not read themselves (off Linux), the process's own difference stands.
        Assert.Equal(new CpuSplit(0.12, 0.08), ProcessCost.SplitWindow(new CpuSplit(0.12, 0.08), runThreads: null));
    }

    [Fact]
    public void A_thread_reads_its_own_user_and_system_time()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.Null(ThreadCpuTime.Read());
            return;
        }

        CpuSplit? read = null;
        var spinner = new Thread(() =>
        {
            // Long enough in user mode for several of the kernel's ticks to find the thread there.
            long until = System.Diagnostics.Stopwatch.GetTimestamp() + (System.Diagnostics.Stopwatch.Frequency / 10);
            ulong x = 1;
            while (System.Diagnostics.Stopwatch.GetTimestamp() < until)
            {
                x = (x * 6364136223846793005UL) + 1;
            }

            GC.KeepAlive(x);
            read = ThreadCpuTime.Read();
        });
        spinner.Start();
        spinner.Join();

        CpuSplit times = Assert.NotNull(read);
        Assert.True(times.UserSeconds > 0 && times.TotalSeconds < 10, $"{times}");
    }

    [Fact]
    public void A_rate_that_grows_faster_than_the_cores_is_explained_from_its_costs_and_one_that_does_not_is_not()
    {
        WorkloadResult one = Result(threads: 1, operationsPerSecond: 100_000, cpuSeconds: 1.0, systemCalls: 200_000);
        WorkloadResult fourFast = Result(threads: 4, operationsPerSecond: 500_000, cpuSeconds: 2.0, systemCalls: 50_000);
        WorkloadResult fourSlow = fourFast with { Store = "Other", Operations = [new OperationResult(OperationType.Read, 150_000, Latency())] };
        WorkloadResult oneSlow = one with { Store = "Other" };

        IReadOnlyList<string> lines = ThreadTables.FasterThanCores([one, fourFast, oneSlow, fourSlow]);

        string line = Assert.Single(lines);
        Assert.StartsWith(
            "Row (read-only) ran 5.0x its one-thread rate at 4 threads on 2 cores, where more threads can give at most 2x",
            line,
            StringComparison.Ordinal);
        Assert.Contains("CPU 10 µs → 4 µs per operation and 2.00 → 0.10 system calls", line, StringComparison.Ordinal);
        var markdown = new StringBuilder();
        ThreadTables.ThreadCosts([one, fourFast]).WriteTo(markdown);
        Assert.Contains("Row | read-only | 4 | 500,000 | 4 µs | 800 ns | 0.10 | 2.00 of 2 |", markdown.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_lone_SQLite_reader_that_made_more_system_calls_per_read_is_explained_and_other_rows_are_not()
    {
        WorkloadResult one = Result(threads: 1, operationsPerSecond: 100_000, cpuSeconds: 0.8, systemCalls: 242_000) with { Store = SqliteRow.WalName };
        WorkloadResult four = Result(threads: 4, operationsPerSecond: 250_000, cpuSeconds: 0.9, systemCalls: 107_500) with { Store = SqliteRow.WalName };
        WorkloadResult scalarOne = one with { Store = SqliteRow.ScalarName };
        WorkloadResult scalarFourAsMany = four with { Store = SqliteRow.ScalarName, Cost = four.Cost! with { SystemCalls = 605_000 } };
        WorkloadResult otherOne = one with { Store = LmdbRow.RowName };
        WorkloadResult otherFour = four with { Store = LmdbRow.RowName };
        WorkloadResult writesOne = one with { Workload = one.Workload with { Name = "write-only", Mix = new OperationMix { Update = 1 } } };
        WorkloadResult writesFour = four with { Workload = writesOne.Workload };

        string line = Assert.Single(ThreadTables.LoneSqliteReader([one, four, scalarOne, scalarFourAsMany, otherOne, otherFour, writesOne, writesFour]));

        Assert.StartsWith(
            $"{SqliteRow.WalName} (read-only): a lone reader made 2.42 system calls per read (8 µs of CPU, 1.6 µs " +
                $"of it in the kernel), against 0.43 (3.6 µs, 720 ns of it in the kernel) at 4 threads.",
            line,
            StringComparison.Ordinal);
        Assert.Contains("a shared POSIX lock (fcntl F_SETLK) on a read-mark byte of the -shm file", line, StringComparison.Ordinal);
        var markdown = new StringBuilder();
        ThreadTables.WriteThreadCosts(markdown, [one, four]);
        Assert.Contains(line, markdown.ToString(), StringComparison.Ordinal);
    }

    /// <summary>A one-second window of a read-only run with the given totals, on a two-core machine; a fifth of the CPU time in the kernel.</summary>
    private static WorkloadResult Result(int threads, double operationsPerSecond, double cpuSeconds, long systemCalls) => new()
    {
        Store = "Row",
        Workload = s_reads,
        Settings = new RunSettings { Threads = threads },
        Elapsed = TimeSpan.FromSeconds(1),
        Operations = [new OperationResult(OperationType.Read, operationsPerSecond, Latency())],
        // The split rests on enough of the run threads' CPU time to be printed (ProcessCost.MinimumSplitCpuSeconds).
        Cost = new ProcessCost(
            WallSeconds: 1, UserSeconds: cpuSeconds * 0.8, SystemSeconds: cpuSeconds * 0.2, systemCalls,
            SystemCallsUnmeasured: null, Cores: 2)
        { SplitCpuSeconds = ProcessCost.MinimumSplitCpuSeconds },
    };

    private static LatencySummary Latency() => new(Count: 1, Mean: 1, P50: 1, P95: 1, P99: 1, P999: 1, Max: 1);

    /// <summary>
    /// Linux's tick-based split of CPU time (<c>cputime_adjust</c> in kernel/sched/cputime.c): the exact runtime split in
    /// the ratio of the ticks that found the task in user and in system mode, neither part ever reported below what it
    /// was before.
    /// </summary>
    private sealed class TickAccounting
    {
        private double _runtime;
        private double _userTicks;
        private double _systemTicks;
        private double _reportedUser;
        private double _reportedSystem;

        public void Run(double runtime, double userTicks, double systemTicks)
        {
            _runtime += runtime;
            _userTicks += userTicks;
            _systemTicks += systemTicks;
        }

        public CpuSplit Read()
        {
            if (_reportedUser + _reportedSystem >= _runtime)
            {
                return new CpuSplit(_reportedUser, _reportedSystem);
            }

            double system = _systemTicks == 0 ? 0 : _userTicks == 0 ? _runtime : _runtime * _systemTicks / (_systemTicks + _userTicks);
            system = Math.Max(system, _reportedSystem);
            double user = _runtime - system;
            if (user < _reportedUser)
            {
                user = _reportedUser;
                system = _runtime - user;
            }

            (_reportedUser, _reportedSystem) = (user, system);
            return new CpuSplit(user, system);
        }
    }

    [Fact]
    public void A_kind_of_operation_of_which_none_completed_prints_so_not_a_latency_of_zero()
    {
        var none = new LatencySummary(Count: 0, Mean: 0, P50: 0, P95: 0, P99: 0, P999: 0, Max: 0);
        var some = new LatencySummary(Count: 3, Mean: 2_000, P50: 1_500, P95: 2_500, P99: 2_500, P999: 2_500, Max: 2_500);

        Assert.Equal("none completed", WorkloadCells.Latency(none, static latency => latency.P99));
        Assert.Equal("2.5 µs", WorkloadCells.Latency(some, static latency => latency.P99));
        Assert.Equal("-", WorkloadCells.Latency(null, static latency => latency.P99));
    }
}
