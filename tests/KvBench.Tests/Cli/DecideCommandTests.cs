using KvBench.Cli;
using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Reports.Results;

using static KvBench.Tests.Cli.InProcessCli;


namespace KvBench.Tests.Cli;

/// <summary><c>kvbench decide</c>: a bad profile measures nothing, and a good one writes a record whose outcome comes from its figures.</summary>
public sealed class DecideCommandTests
{
    private const string Workload = """
        "workload": { "keyBytes": 16, "valueBytes": 128, "records": 2000, "mix": { "get": 0.5, "update": 0.5 }, "popularity": "uniform" }
        """;

    [Fact]
    public void A_bad_profile_is_one_line_and_exit_code_2_and_nothing_is_measured()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("bad.json");
        File.WriteAllText(profile, $$"""{ "title": "t", {{Workload}}, "drivers": [{ "throughput": "workload", "atLeast": "5 ms", "must": true }] }""");
        string record = directory.Combine("record.md");

        (int exitCode, string output, string error) = Invoke("decide", "--profile", profile, "--output", record, "--quick");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Single(error.Trim().Split('\n'));
        Assert.Contains("$.drivers[0].atLeast", error, StringComparison.Ordinal);
        Assert.DoesNotContain("Deciding", output, StringComparison.Ordinal);
        Assert.False(File.Exists(record));
    }

    [Fact]
    public void The_record_chooses_the_option_that_meets_every_must_driver_and_names_the_figure_that_put_the_other_out()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(profile, $$"""
            {
              "title": "Choose a store for long keys",
              {{Workload}},
              "drivers": [
                { "name": "Keys of 1 KiB", "capability": "keyBytes", "atLeast": "1 KiB", "must": true },
                { "throughput": "workload", "atLeast": "1000/s", "weight": 1 }
              ],
              "candidates": ["Sqlite_WAL", "LMDB"]
            }
            """);
        string record = directory.Combine("record.md");

        (int exitCode, string output, string error) = Invoke("decide", "--profile", profile, "--output", record, "--quick");

        Assert.True(exitCode == ExitCodes.Ok, error);
        Assert.Contains("Sqlite_WAL (1 of 2 options in)", output, StringComparison.Ordinal);
        string markdown = File.ReadAllText(record);
        Assert.Contains("Chosen option: **Sqlite_WAL**", markdown, StringComparison.Ordinal);

        // LMDB's largest key is its compile-time limit, measured by the probe, and it is the figure that put LMDB out.
        Assert.Contains("* LMDB: Keys of 1 KiB (≥ 1 KiB): [511 B](#capability-probes)", markdown, StringComparison.Ordinal);
        Assert.Contains("### Workload rounds", markdown, StringComparison.Ordinal);
        Assert.Contains("## What would change the decision", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_must_driver_no_candidate_meets_is_no_input_error_and_the_record_says_so_with_each_figure()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(profile, $$"""
            {
              "title": "Impossible", {{Workload}},
              "drivers": [{ "name": "A trillion a second", "throughput": "workload", "atLeast": "1000000000000/s", "must": true }],
              "candidates": ["Sqlite_WAL", "LMDB"]
            }
            """);
        string record = directory.Combine("record.md");

        // Three rounds: where a further round is expected from two reaches far enough, on a loaded machine, to hold any rate.
        (int exitCode, _, string error) = Invoke("decide", "--profile", profile, "--output", record, "--quick", "--rounds", "3");

        Assert.True(exitCode == ExitCodes.Ok, error);
        string markdown = File.ReadAllText(record);
        Assert.Contains("**no option meets every must-driver**", markdown, StringComparison.Ordinal);
        Assert.Contains("* Sqlite_WAL: A trillion a second", markdown, StringComparison.Ordinal);
        Assert.Contains("* LMDB: A trillion a second", markdown, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Synced", true)]
    [InlineData("Buffered", false)]
    public void A_power_loss_driver_keeps_a_row_at_Synced_and_puts_it_out_at_Buffered_where_a_cut_drops_its_unflushed_writes(
        string durability, bool kept)
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(profile, $$"""
            {
              "title": "Survives the power going",
              "workload": { "keyBytes": 16, "valueBytes": 128, "records": 500, "mix": { "update": 1 }, "durability": "{{durability}}" },
              "drivers": [{ "name": "Kept after a power cut", "powerLossKept": "acknowledged", "atLeast": "100%", "must": true }],
              "candidates": ["LMDB"]
            }
            """);
        string record = directory.Combine("record.md");

        (int exitCode, _, string error) = Invoke("decide", "--profile", profile, "--output", record, "--quick");

        Assert.True(exitCode == ExitCodes.Ok, error);
        string markdown = File.ReadAllText(record);
        Assert.Contains("### Power-loss rounds", markdown, StringComparison.Ordinal);
        if (kept)
        {
            Assert.Contains("Chosen option: **LMDB**", markdown, StringComparison.Ordinal);
            Assert.Contains("Kept after a power cut (≥ 100%): [100%", markdown, StringComparison.Ordinal);
        }
        else
        {
            // LMDB at Buffered flushes no commit: the cut drops what the writer acknowledged, and the figure says how much.
            Assert.Contains("**no option meets every must-driver**", markdown, StringComparison.Ordinal);
            Assert.Contains("* LMDB: Kept after a power cut (≥ 100%): [", markdown, StringComparison.Ordinal);
            Assert.DoesNotContain("Kept after a power cut (≥ 100%): [100%", markdown, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_records_results_file_renders_the_same_record_byte_for_byte_and_holds_each_figure_with_its_unit()
    {
        using var directory = new TempDirectory();
        string profile = directory.Combine("profile.json");
        File.WriteAllText(profile, """
            {
              "title": "Every kind of evidence, drawn again",
              "context": "A record drawn from its results file must read as the one the run wrote.",
              "workload": {
                "keyBytes": { "min": 16, "max": 64 }, "keyShape": { "prefixes": 8 },
                "valueBytes": { "buckets": [{ "share": 0.8, "bytes": 100 }, { "share": 0.2, "bytes": "1 KiB" }] },
                "records": 1000, "mix": { "get": 0.6, "update": 0.3, "scan": 0.1 }, "popularity": { "zipfian": 0.9 }
              },
              "drivers": [
                { "name": "Keys of 1 KiB", "capability": "keyBytes", "atLeast": "1 KiB", "must": true },
                { "capability": "orderedScans", "weight": 1 },
                { "throughput": "workload", "atLeast": "1000/s", "weight": 1 },
                { "latency": "get", "percentile": 99, "atMost": "2 ms", "weight": 1 },
                { "crashKept": "acknowledged", "atLeast": "100%", "weight": 1 },
                { "diskBytesPerRecord": true, "atMost": "2 KiB", "weight": 1 },
                { "allocations": "perOperation", "atMost": "256 B", "weight": 0.5 },
                { "cpu": "perOperation", "atMost": "50 us", "weight": 0.5 }
              ],
              "candidates": ["Sqlite_WAL", "LMDB"]
            }
            """);
        string record = directory.Combine("record.md");
        (int decided, _, string decideError) = Invoke("decide", "--profile", profile, "--output", record, "--quick");
        Assert.True(decided == ExitCodes.Ok, decideError);
        string results = ResultsFile.PathFor(record);

        string again = directory.Combine("again.md");
        (int rendered, string output, string error) = Invoke("render", results, "--output", again);

        Assert.True(rendered == ExitCodes.Ok, error);
        Assert.Equal($"Wrote {again}{Environment.NewLine}", output);
        Assert.Equal(File.ReadAllText(record), File.ReadAllText(again));
        var read = Assert.IsType<DecisionResults>(ResultsFile.Read(results));
        Assert.Equal(DecisionResults.DecideKind, read.Kind);
        Assert.Equal("Every kind of evidence, drawn again", read.Profile.Title);
        Assert.Contains(read.Figures, figure => figure is { Option: "Sqlite_WAL", Unit: "ops/s", Samples: > 0, Unmeasured: null });
        Assert.Contains(read.Figures, figure => figure is { Option: "LMDB", Driver: "Keys of 1 KiB", Unit: "bytes", Value: 511 });
    }

    [Fact]
    public void The_command_that_regenerates_the_record_names_the_assemblies_of_rows_as_they_were_typed()
    {
        string[] rowsFrom = KvBenchCommand.Create().Parse(["decide", "--profile", "profile.json", "--rows-from", "../team/bin/Rows.dll"])
            .GetValue(StoreArguments.RowAssemblies) ?? [];

        string command = DecideCommand.Regenerate(new FileInfo("profile.json"), new FileInfo("record.md"), quick: true, all: false, rounds: null, rowsFrom);

        Assert.Equal("kvbench decide --profile profile.json --output record.md --quick --rows-from ../team/bin/Rows.dll", command);
    }

    [Fact]
    public void Every_checked_in_profile_reads()
    {
        string[] profiles = [
            .. Directory.EnumerateFiles(Repository.Profiles(), "*.json", SearchOption.AllDirectories).Where(
                path => !path.EndsWith(".schema.json", StringComparison.Ordinal))];

        Assert.True(profiles.Length >= 3, string.Join(", ", profiles));
        Assert.All(profiles, path => Assert.NotEmpty(ProfileReader.Read(path).Drivers));
        Assert.NotEmpty(DecisionProfiles.Default().Drivers);
    }
}
