using System.Globalization;
using System.Text.RegularExpressions;

using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>
/// The sentences the thread tables generate, over many combinations of figures: every word that compares (less, more,
/// under) must agree with the figures the sentence quotes beside it.
/// </summary>
public sealed partial class ThreadCostSentenceTests
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    private static readonly WorkloadSpec s_mix = new() { Name = "50/50", Mix = new OperationMix { Read = 0.5, Update = 0.5 }, RecordCount = 100 };

    /// <summary>The comparing phrases the checks below know; any other comparing word in a sentence fails the test until it is checked too.</summary>
    private static readonly string[] s_checkedPhrases =
    [
        "where more threads can give at most",
        "each operation cost less CPU time",
        "each operation cost no less CPU time",
        "but the process kept more of the cores busy",
        "at one thread it kept under one core busy",
        "and more threads wait at once",
    ];

    public static TheoryData<double, double, double, double> Figures()
    {
        // One thread's rate and CPU time per operation, then four threads' (all on two cores, one-second windows).
        var data = new TheoryData<double, double, double, double>
        {
            // A server row whose CPU per operation rose while its rate more than doubled, as MariaDB's 50/50 did.
            { 4_170, 38.92, 9_442, 41.36 },
            { 1_480, 584.5, 5_078, 181.84 },
            { 126_548, 8.23, 399_970, 4.78 },
        };
        foreach (double oneRate in (double[])[1_000, 100_000])
        {
            foreach (double oneCpu in (double[])[2, 40])
            {
                foreach (double growth in (double[])[1.5, 2.5, 4])
                {
                    foreach (double cpuChange in (double[])[0.5, 0.9999, 1, 1.0001, 1.2, 3])
                    {
                        data.Add(oneRate, oneCpu, oneRate * growth, oneCpu * cpuChange);
                    }
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Figures))]
    public void A_sentence_about_a_rate_beyond_the_cores_never_contradicts_its_figures(
        double oneRate, double oneCpuMicroseconds, double fourRate, double fourCpuMicroseconds)
    {
        WorkloadResult one = Result(1, oneRate, oneCpuMicroseconds);
        WorkloadResult four = Result(4, fourRate, fourCpuMicroseconds);

        IReadOnlyList<string> lines = ThreadTables.FasterThanCores([one, four]);

        if (fourRate / oneRate <= 2)
        {
            Assert.Empty(lines);
            return;
        }

        string line = Assert.Single(lines);
        Match growth = Growth().Match(line);
        Assert.True(growth.Success, line);
        Assert.True(Number(growth.Groups["ran"].Value) > Number(growth.Groups["most"].Value), line);

        Match cpu = CpuPair().Match(line);
        Assert.True(cpu.Success, line);
        double cpuOne = Nanoseconds(cpu.Groups["one"].Value);
        double cpuFour = Nanoseconds(cpu.Groups["four"].Value);
        bool less = line.Contains("cost less CPU time", StringComparison.Ordinal);
        bool noLess = line.Contains("cost no less CPU time", StringComparison.Ordinal);
        Assert.True(less != noLess, $"The sentence must say whether an operation cost less CPU time: {line}");
        Assert.True(less ? cpuFour < cpuOne : cpuFour >= cpuOne, line);

        Match busy = BusyPair().Match(line);
        Assert.True(busy.Success, line);
        double busyOne = Number(busy.Groups["one"].Value);
        double busyFour = Number(busy.Groups["four"].Value);
        if (line.Contains("kept more of the cores busy", StringComparison.Ordinal))
        {
            Assert.True(busyFour > busyOne, line);
        }

        if (line.Contains("kept under one core busy", StringComparison.Ordinal))
        {
            Assert.True(busyOne < 1, line);
        }

        // No comparing word the checks above do not know.
        string rest = s_checkedPhrases.Aggregate(line, (text, phrase) => text.Replace(phrase, string.Empty, StringComparison.Ordinal));
        Assert.DoesNotMatch(Comparative(), rest);
    }

    [Fact]
    public void MariaDBs_fifty_fifty_row_is_not_said_to_cost_less_CPU_when_its_CPU_per_operation_rose()
    {
        string line = Assert.Single(ThreadTables.FasterThanCores([Result(1, 4_170, 38.92), Result(4, 9_442, 41.36)]));

        Assert.DoesNotContain("cost less", line, StringComparison.Ordinal);
        Assert.Contains("each operation cost no less CPU time (CPU 38.92 µs → 41.36 µs per operation", line, StringComparison.Ordinal);
        Assert.Contains("but the process kept more of the cores busy, 0.16 → 0.39", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(2.42, 0.43)]
    [InlineData(0.43, 2.42)]
    [InlineData(1.0, 1.0)]
    public void A_lone_SQLite_reader_is_said_to_make_more_system_calls_only_where_it_did(double oneCalls, double fourCalls)
    {
        WorkloadResult one = Result(
            1, 100_000, 8, systemCallsPerOperation: oneCalls,
            workload: s_mix with { Name = "read-only", Mix = new OperationMix { Read = 1 } }) with
        { Store = SqliteRow.WalName };
        WorkloadResult four = Result(4, 250_000, 3.6, systemCallsPerOperation: fourCalls, workload: one.Workload) with { Store = SqliteRow.WalName };

        IReadOnlyList<string> lines = ThreadTables.LoneSqliteReader([one, four]);

        if (oneCalls <= fourCalls)
        {
            Assert.Empty(lines);
            return;
        }

        Match calls = LoneReaderCalls().Match(Assert.Single(lines));
        Assert.True(calls.Success, lines[0]);
        Assert.True(Number(calls.Groups["one"].Value) > Number(calls.Groups["four"].Value), lines[0]);
    }

    /// <summary>
    /// A one-second window on two cores at <paramref name="operationsPerSecond"/>, each operation costing
    /// <paramref name="cpuMicroseconds"/> of CPU, a fifth of it in the kernel.
    /// </summary>
    private static WorkloadResult Result(
        int threads, double operationsPerSecond, double cpuMicroseconds, double systemCallsPerOperation = 3,
        WorkloadSpec? workload = null)
    {
        double cpuSeconds = cpuMicroseconds * operationsPerSecond / 1e6;
        return new WorkloadResult
        {
            Store = "Row",
            Workload = workload ?? s_mix,
            Settings = new RunSettings { Threads = threads },
            Elapsed = TimeSpan.FromSeconds(1),
            Operations = [
                new OperationResult(
                    OperationType.Read,
                    operationsPerSecond,
                    new LatencySummary(Count: 1, Mean: 1, P50: 1, P95: 1, P99: 1, P999: 1, Max: 1))],
            Cost = new ProcessCost(
                WallSeconds: 1,
                UserSeconds: cpuSeconds * 0.8,
                SystemSeconds: cpuSeconds * 0.2,
                (long)Math.Round(systemCallsPerOperation * operationsPerSecond),
                SystemCallsUnmeasured: null,
                Cores: 2),
        };
    }

    private static double Number(string text) => double.Parse(text, NumberStyles.Float | NumberStyles.AllowThousands, s_numbers);

    /// <summary>"850 ns", "12.3 µs", "4.56 ms", as the tables print them, in nanoseconds.</summary>
    private static double Nanoseconds(string text)
    {
        string[] parts = text.Split(' ');
        return Number(parts[0]) * parts[1] switch
        {
            "ns" => 1,
            "µs" => 1e3,
            "ms" => 1e6,
            _ => throw new ArgumentException($"Not a printed time: {text}", nameof(text)),
        };
    }

    [GeneratedRegex(@"ran (?<ran>[\d.]+)x its one-thread rate .* at most (?<most>\d+)x:")]
    private static partial Regex Growth();

    [GeneratedRegex(@"CPU (?<one>[\d.,]+ (?:ns|µs|ms)) → (?<four>[\d.,]+ (?:ns|µs|ms)) per operation")]
    private static partial Regex CpuPair();

    [GeneratedRegex(@"(?<one>\d+\.\d\d) → (?<four>\d+\.\d\d)(?: cores busy|:|\.$)")]
    private static partial Regex BusyPair();

    [GeneratedRegex(@"\b(less|more|fewer|faster|slower|under|over|higher|lower|cheaper|dearer)\b")]
    private static partial Regex Comparative();

    [GeneratedRegex(@"a lone reader made (?<one>[\d.,]+) system calls per read .*, against (?<four>[\d.,]+) \(")]
    private static partial Regex LoneReaderCalls();
}
