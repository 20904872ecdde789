using KvBench.Evaluation.Measuring;
using KvBench.Stores.Baselines;


namespace KvBench.Tests.Evaluation.Measuring;

public sealed class PointOperationReportTests
{
    private static readonly PointResult[] s_results =
    [
        new(PointMethods.Put, "Sqlite_WAL", 128, 9_999, 1_050, 0), // a mean moved by one slow iteration: ratios use the median
        new(PointMethods.Put, "Sqlite_WAL_raw", 128, 1_000, 1_000, 0),
        new(PointMethods.Put, "Sqlite_WAL_naive", 128, 5_000, 5_000, 900),
        new(PointMethods.Get, "Sqlite_WAL", 128, 1_300, 1_300, 40),
        new(PointMethods.Get, "Sqlite_WAL_raw", 128, 1_000, 1_000, 0),
        new(PointMethods.GetArray, "Sqlite_WAL", 128, 1_100, 1_100, 152),
        new(PointMethods.HaveKey, "FileSystem", 128, 2_000, 2_000, 0),
    ];

    [Theory]
    [InlineData("Sqlite_WAL", "Sqlite_WAL", RowVariantKind.Adapter, "Sqlite_WAL_raw")]
    [InlineData("Sqlite_WAL_raw", "Sqlite_WAL", RowVariantKind.Raw, null)]
    [InlineData("LMDB_naive", "LMDB", RowVariantKind.Naive, "LMDB")]
    public void Variant_names_parse_to_their_row_and_reference(string name, string row, RowVariantKind kind, string? reference)
    {
        Assert.Equal((row, kind), RowVariants.Parse(name));
        Assert.Equal(reference, RowVariants.ReferenceOf(name));
        Assert.Equal(name, RowVariants.Name(row, kind));
    }

    [Fact]
    public void Ratios_divide_each_row_by_its_reference_at_the_same_method_and_size()
    {
        IReadOnlyList<RowRatio> ratios = PointRatios.Compute(s_results);

        Assert.Equal(
            [
                ("Sqlite_WAL", PointMethods.Put, 1.05),
                ("Sqlite_WAL_naive", PointMethods.Put, Math.Round(5_000 / 1_050.0, 6)),
                ("Sqlite_WAL", PointMethods.Get, 1.3)],
            ratios.Select(ratio => (ratio.Row, ratio.Method, Math.Round(ratio.Value, 6))));
    }

    [Fact]
    public void Goals_flag_an_allocating_get_and_an_adapter_over_ten_percent_and_pass_the_rest()
    {
        List<TargetCheck> unmet = [.. PointOperationTargets.Check(s_results).Where(check => !check.Met)];

        Assert.Equal([(PointMethods.Get, "40 B"), (PointMethods.Get, "1.30")], unmet.Select(check => (check.Method, check.Measured)));
        Assert.Equal(152, PointOperationTargets.ArrayBytes(128));
        Assert.Equal(1056, PointOperationTargets.ArrayBytes(1028));
    }

    [Fact]
    public void Threaded_ratios_divide_by_the_raw_driver_at_the_same_thread_count_and_say_where_it_was_not_measured()
    {
        PointResult[] results =
        [
            new(PointMethods.Get, "FASTER", 128, 120, 120, 0, Threads: 1),
            new(PointMethods.Get, "FASTER_raw", 128, 100, 100, 0, Threads: 1),
            new(PointMethods.Get, "FASTER", 128, 90, 90, 0, Threads: 4),
            new(PointMethods.Get, "FASTER_raw", 128, 60, 60, 0, Threads: 4),
            new(PointMethods.Get, "LMDB", 128, 200, 200, 0, Threads: 4),
        ];

        Assert.Equal([(1, 1.2), (4, 1.5)], PointRatios.Compute(results).Select(ratio => (ratio.Threads, Math.Round(ratio.Value, 6))));
        string markdown = PointOperationReport.ThreadedToMarkdown(results);
        Assert.Contains("| FASTER | FASTER_raw | 1.20 | 1.50 |", markdown, StringComparison.Ordinal);
        Assert.Contains("| LMDB | LMDB_raw | not measured | not measured |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void The_markdown_has_both_ratio_tables_and_the_unmet_goals()
    {
        string markdown = PointOperationReport.ToMarkdown(s_results);

        Assert.Contains("| Sqlite_WAL | Sqlite_WAL_raw | 1.05 |", markdown);
        Assert.Contains("| Sqlite_WAL_naive | Sqlite_WAL |", markdown);
        Assert.Contains("| Sqlite_WAL | Get | 128 | adapter ÷ raw ≤ 1.10 | 1.30 | missed |", markdown);
        Assert.Contains("6 goals: 4 met, 2 missed, 0 inconclusive.", markdown);
    }

    [Fact]
    public void A_ratio_is_met_missed_or_inconclusive_from_its_interval_not_its_median()
    {
        // Same medians (1.05 and 1.20 over the raw's 1,000 ns), different spreads: only the tight rows get a verdict.
        double[] raw = [990, 995, 1_000, 1_000, 1_000, 1_000, 1_000, 1_005, 1_010, 1_000];
        double[] tightUnder = [.. raw.Select(value => value * 1.05)];
        double[] tightOver = [.. raw.Select(value => value * 1.20)];
        double[] wide = [700, 800, 900, 1_000, 1_050, 1_050, 1_100, 1_300, 1_500, 1_600];
        PointResult[] results =
        [
            Result("Memory_raw", raw), Result("Memory", tightUnder),
            Result("FASTER_raw", raw), Result("FASTER", tightOver),
            Result("LMDB_raw", raw), Result("LMDB", wide),
        ];

        Dictionary<string, GoalVerdict> verdicts = PointOperationTargets.Check(results)
            .Where(check => check.Goal.StartsWith("adapter", StringComparison.Ordinal))
            .ToDictionary(check => check.Row, check => check.Verdict);

        Assert.Equal(GoalVerdict.Met, verdicts["Memory"]);
        Assert.Equal(GoalVerdict.Missed, verdicts["FASTER"]);
        Assert.Equal(GoalVerdict.Inconclusive, verdicts["LMDB"]);
        RowRatio lmdb = PointRatios.Compute(results).Single(ratio => ratio.Row == "LMDB");
        Assert.True(lmdb.Interval is { } interval && interval.Low < 1.05 && interval.High > 1.10, lmdb.Formatted);
        Assert.Equal(PointRatios.Compute(results), PointRatios.Compute(results)); // a fixed random stream: the same iterations, the same interval

        static PointResult Result(string row, double[] iterations)
        {
            double median = RatioInterval.Median([.. iterations.Order()]);
            return new(PointMethods.Get, row, 128, iterations.Average(), median, 0, iterations);
        }
    }

    [Fact]
    public void A_server_rows_allocations_are_held_to_its_raw_clients_not_to_zero()
    {
        PointResult[] results =
        [
            new(PointMethods.Get, "Redis_raw", 128, 1_000, 1_000, 240), new(PointMethods.Get, "Redis", 128, 1_000, 1_000, 240),
            new(PointMethods.Put, "Redis_raw", 128, 1_000, 1_000, 3_378), new(PointMethods.Put, "Redis", 128, 1_000, 1_000, 3_426),
        ];

        Dictionary<string, GoalVerdict> verdicts = PointOperationTargets.Check(results, allocationsAgainstRaw: true)
            .Where(check => check.Goal.StartsWith("allocates", StringComparison.Ordinal))
            .ToDictionary(check => check.Method, check => check.Verdict);
        Dictionary<string, GoalVerdict> againstZero = PointOperationTargets.Check(results)
            .Where(check => check.Goal.StartsWith("allocates", StringComparison.Ordinal))
            .ToDictionary(check => check.Method, check => check.Verdict);

        Assert.Equal(GoalVerdict.Met, verdicts[PointMethods.Get]);
        Assert.Equal(GoalVerdict.Missed, verdicts[PointMethods.Put]);
        Assert.Equal(GoalVerdict.Missed, againstZero[PointMethods.Get]);
    }

    [Theory]
    [InlineData(0, 0, "Met")]
    [InlineData(2, 0, "Inconclusive")]
    [InlineData(23, 0, "Inconclusive")]
    [InlineData(24, 0, "Missed")]
    [InlineData(152, 152, "Met")]
    [InlineData(170, 152, "Inconclusive")]
    [InlineData(176, 152, "Missed")]
    public void An_allocation_over_its_goal_by_less_than_the_smallest_object_is_inconclusive_not_missed(long allocated, long limit, string verdict)
    {
        // 0 B in one run and 2 B in the next is one build's occasional allocation spread over different operation counts.
        Assert.Equal(Enum.Parse<GoalVerdict>(verdict), PointOperationTargets.AllocationVerdict(allocated, limit));
    }
}
