using KvBench.Evaluation.Comparison;

namespace KvBench.Tests.Evaluation.Comparison;

/// <summary>The verdict on a cell: a change past the threshold counts only when the whole interval of the ratio is past it.</summary>
public sealed class RunComparisonTests
{
    [Theory]
    [InlineData(100, 90, 110, 103, 95, 112, "Same")]
    [InlineData(100, 95, 105, 130, 125, 135, "Faster")]
    [InlineData(100, 95, 105, 70, 65, 75, "Slower")]
    [InlineData(100, 95, 105, 115, 104, 127, "Undecided")]
    [InlineData(100, 60, 140, 130, 90, 170, "Same")]
    public void Throughput_is_judged_by_where_the_interval_of_its_ratio_lies(
        double baseValue, double baseLow, double baseHigh, double newValue, double newLow, double newHigh, string verdict)
    {
        ResultCell before = Cell(Better.Higher, baseValue, baseLow, baseHigh);
        ResultCell after = Cell(Better.Higher, newValue, newLow, newHigh);

        Assert.Equal(Enum.Parse<ChangeVerdict>(verdict), RunComparison.Judge(before, after, threshold: 0.05));
    }

    [Fact]
    public void The_ratio_s_interval_adds_the_two_runs_spreads_as_independent_errors_not_end_to_end()
    {
        // Each run a factor of 1.1 either side of its median: end to end the ratio would reach 1.21, as independent errors
        // 1.1 to the power of √2.
        var change = new CellChange(Cell(Better.Higher, 100, 100 / 1.1, 110), Cell(Better.Higher, 200, 200 / 1.1, 220), ChangeVerdict.Same);

        Assert.Equal(2 * Math.Pow(1.1, Math.Sqrt(2)), change.HighRatio, 9);
        Assert.Equal(2 / Math.Pow(1.1, Math.Sqrt(2)), change.LowRatio, 9);
    }

    [Theory]
    [InlineData(103, "Same")]
    [InlineData(300, "Undecided")]
    public void A_cell_of_one_interval_has_no_spread_so_a_change_past_the_threshold_is_undecided(double newValue, string verdict)
    {
        ResultCell before = Cell(Better.Higher, 100, 100, 100) with { Samples = 1 };
        ResultCell after = Cell(Better.Higher, newValue, newValue, newValue) with { Samples = 1 };

        Assert.Equal(Enum.Parse<ChangeVerdict>(verdict), RunComparison.Judge(before, after, threshold: 0.05));
    }

    [Fact]
    public void The_comparison_says_how_far_its_cells_can_tell_and_how_every_cell_moved_together()
    {
        ResultCell[] before = [.. Enumerable.Range(0, 8).Select(i => Cell(Better.Higher, 100, 80, 120) with { Run = $"Memory / run {i} / 1 threads" })];
        ResultCell[] after = [.. before.Select(cell => cell with { Value = 110, Low = 88, High = 132 })];

        string markdown = RunComparison.Compare(before, after, 0.05).ToMarkdown("base.json", "new.json");

        Assert.Contains("- throughput: ±", markdown, StringComparison.Ordinal);
        Assert.Contains("; median ratio 1.10", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Cells_that_scatter_between_two_runs_widen_every_cell_s_interval_but_a_change_far_past_the_scatter_still_shows()
    {
        // Each run's own intervals tight (±2%), but the cells of the two runs scatter by ±20% either way: each such move is
        // within what the runs' windows differ by. One cell a third as fast stands far outside it.
        double[] moves = [0.8, 1.2, 0.85, 1.15, 0.9, 1.1, 1.0, 0.8, 1.2, 1.0];
        ResultCell[] before = [.. moves.Select((_, i) => Cell(Better.Higher, 100, 98, 102) with { Run = $"Memory / run {i} / 1 threads" })];
        ResultCell[] after = [.. before.Select((cell, i) => cell with { Value = 100 * moves[i], Low = 98 * moves[i], High = 102 * moves[i] })];
        ResultCell slowed = Cell(Better.Higher, 100, 98, 102) with { Run = "LMDB / run / 1 threads" };

        RunComparison comparison = RunComparison.Compare([.. before, slowed], [.. after, slowed with { Value = 33, Low = 32, High = 34 }], 0.05);

        Assert.All(comparison.Changes.Take(moves.Length), change => Assert.Equal(ChangeVerdict.Same, change.Verdict));
        Assert.Equal(ChangeVerdict.Slower, comparison.Changes[^1].Verdict);
        Assert.Equal(ChangeVerdict.Faster, RunComparison.Judge(before[1], after[1], 0.05));
    }

    [Fact]
    public void A_run_two_tables_share_is_one_cell_not_two()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("shared.json");
        string run = """
            { "Store": "Sqlite_WAL", "Workload": { "Name": "read-only", "RecordCount": 10 }, "Settings": { "Threads": 1 },
              "WindowStartUtc": "2026-01-01T00:00:00Z", "Operations": [ { "OperationsPerSecond": 5 } ] }
            """;
        File.WriteAllText(path, $$"""{ "Upserts": [ {{run}} ], "Pragmas": [ {{run}} ] }""");

        Assert.Equal("Sqlite_WAL / read-only / 10 records / 1 threads", Assert.Single(ResultCells.ReadRun(path).Cells).Run);
    }

    [Fact]
    public void A_latency_that_grows_is_slower_and_one_that_shrinks_is_faster()
    {
        ResultCell before = Cell(Better.Lower, 1_000, 950, 1_050);
        ResultCell after = Cell(Better.Lower, 2_000, 1_900, 2_100);

        Assert.Equal(ChangeVerdict.Slower, RunComparison.Judge(before, after, 0.05));
        Assert.Equal(ChangeVerdict.Faster, RunComparison.Judge(after, before, 0.05));
    }

    [Fact]
    public void Cells_only_one_run_holds_are_listed_and_only_a_slower_cell_is_a_regression()
    {
        ResultCell shared = Cell(Better.Higher, 100, 95, 105);
        ResultCell onlyBase = shared with { Run = "LMDB / YCSB-A / 1,000 records / 1 threads" };
        ResultCell onlyNew = shared with { Run = "RocksDB / YCSB-A / 1,000 records / 1 threads" };

        RunComparison comparison = RunComparison.Compare([shared, onlyBase], [shared with { Value = 130, Low = 125, High = 135 }, onlyNew], 0.05);

        Assert.Equal(ChangeVerdict.Faster, Assert.Single(comparison.Changes).Verdict);
        Assert.Equal([onlyBase], comparison.OnlyInBase);
        Assert.Equal([onlyNew], comparison.OnlyInNew);
        Assert.False(comparison.Regressed);
        string markdown = comparison.ToMarkdown("base.json", "new.json");
        Assert.Contains("0 same, 1 faster, 0 slower, 0 undecided", markdown, StringComparison.Ordinal);
        Assert.Contains($"Only in base.json: {onlyBase.Key}.", markdown, StringComparison.Ordinal);
        Assert.Contains($"Only in new.json: {onlyNew.Key}.", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void What_two_results_files_say_differently_of_their_runs_is_listed_with_both_values()
    {
        ResultCell shared = Cell(Better.Higher, 100, 95, 105);
        var before = new ComparedRun([shared], new Dictionary<string, string> { ["KvBench"] = "0.1.0+a", ["Engine of LMDB"] = "LightningDB 0.23.1" });
        var after = new ComparedRun([shared], new Dictionary<string, string> { ["KvBench"] = "0.1.0+b", ["Machine: Cpu"] = "Other CPU" });

        RunComparison comparison = RunComparison.Compare(before, after, 0.05);

        Assert.Equal(
            [("KvBench", "0.1.0+a", "0.1.0+b"), ("Engine of LMDB", "LightningDB 0.23.1", null), ("Machine: Cpu", null, "Other CPU")],
            comparison.Differences);
        string markdown = comparison.ToMarkdown("base.json", "new.json");
        Assert.Contains("- KvBench: 0.1.0+a in base.json, 0.1.0+b in new.json", markdown, StringComparison.Ordinal);
        Assert.Contains("- Machine: Cpu: not given in base.json, Other CPU in new.json", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_run_held_twice_in_one_file_is_told_apart_by_its_place_and_neither_is_lost()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("two.json");
        static string Run(int opsPerSecond) => $$"""
            { "Store": "Redis", "Workload": { "Name": "YCSB-A", "RecordCount": 10 }, "Settings": { "Threads": 4 },
              "Operations": [ { "OperationsPerSecond": {{opsPerSecond}} } ] }
            """;
        // The bare form run, ycsb and sweep wrote before results files had an envelope: compare still reads it. The two
        // runs are two measurements (the server section's tiers), so they differ.
        File.WriteAllText(path, $$"""[ {{Run(5)}}, {{Run(6)}} ]""");

        ComparedRun read = ResultCells.ReadRun(path);

        Assert.Equal(["Redis / YCSB-A / 10 records / 4 threads", "Redis / YCSB-A / 10 records / 4 threads #2"], read.Cells.Select(cell => cell.Run));
    }

    private static ResultCell Cell(Better better, double value, double low, double high) =>
        new("Memory / YCSB-A / 1,000 records / 1 threads", better == Better.Higher ? "throughput" : "p99", "x", better, value, low, high, Samples: 3);
}
