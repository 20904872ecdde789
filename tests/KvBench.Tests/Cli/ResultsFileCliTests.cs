using System.Text.Json.Nodes;

using KvBench.Cli;
using KvBench.Evaluation.Reports.Results;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary>
/// The results files of <c>run</c>, <c>ycsb</c>, <c>sweep</c> and <c>contend</c> with <c>--json</c>: each is of its kind,
/// <c>render</c> draws the tables the command printed, and a file of a kind or version this build does not know is one
/// line and the usage code.
/// </summary>
public sealed class ResultsFileCliTests
{
    private static readonly string[] s_short = ["--duration", "0.5", "--warmup", "0.1"];

    [Theory]
    [InlineData(CommandResults.WorkloadsKind, "run", "--store", "Memory", "--load", "--records", "1000", "--mix", "update=1", "--threads", "1")]
    [InlineData(CommandResults.WorkloadsKind, "ycsb", "--stores", "Memory", "--workloads", "A", "--records", "1000", "--threads", "1")]
    [InlineData(CommandResults.ThreadSweepKind, "sweep", "threads", "--stores", "Memory", "--records", "1000", "--thread-counts", "1")]
    [InlineData(CommandResults.ScaleSweepKind, "sweep", "scale", "--stores", "Memory", "--record-counts", "500,1000")]
    [InlineData(CommandResults.ContentionKind, "contend", "--stores", "Sqlite_WAL", "--records", "1000", "--rate", "200")]
    [InlineData(CommandResults.SqliteSweepKind, "sqlite", "pragmas", "--records", "1000", "--thread-counts", "1")]
    [InlineData(CommandResults.SqliteBusyKind, "sqlite", "busy", "--writes", "100")]
    public void A_commands_results_file_is_of_its_kind_and_renders_the_tables_it_printed(string kind, params string[] command)
    {
        using var directory = new TempDirectory();
        string json = directory.Combine("run.json");
        string[] where = command[0] == "run" ? ["--dir", directory.Combine("store")] : ["--work-dir", directory.Combine("work")];
        // The busy trap runs a number of writes, not for a time.
        string[] lengths = command is ["sqlite", "busy", ..] ? [] : s_short;
        (int ran, string printed, string runError) = Invoke([.. command, .. lengths, .. where, "--json", json]);
        Assert.True(ran == ExitCodes.Ok, runError);

        (int exitCode, string output, string error) = Invoke("render", json);

        Assert.True(exitCode == ExitCodes.Ok, error);
        Assert.Contains($"Wrote {directory.Combine("run.md")}", output, StringComparison.Ordinal);
        Assert.Contains(printed, File.ReadAllText(directory.Combine("run.md")), StringComparison.Ordinal);
        ResultsFile read = ResultsFile.Read(json);
        Assert.Equal(kind, read.Kind);
        Assert.StartsWith($"kvbench {command[0]} ", read.Command, StringComparison.Ordinal);
        Assert.NotEmpty(read.Engines);
    }

    [Fact]
    public void A_runs_bare_json_from_before_results_files_still_renders_and_compares()
    {
        using var directory = new TempDirectory();
        string json = directory.Combine("run.json");
        (int ran, string printed, string runError) = Invoke(
            ["run", "--store", "Memory", "--dir", directory.Combine("store"), "--load", "--records", "1000", "--mix", "update=1", "--threads", "1", .. s_short,
            "--json", json]);
        Assert.True(ran == ExitCodes.Ok, runError);
        string bare = directory.Combine("bare.json");
        File.WriteAllText(bare, JsonNode.Parse(File.ReadAllText(json))!["Results"]![0]!.ToJsonString());

        (int rendered, _, string renderError) = Invoke("render", bare);
        (int compared, string comparison, string compareError) = Invoke("compare", bare, json);

        Assert.True(rendered == ExitCodes.Ok, renderError);
        Assert.Contains(printed, File.ReadAllText(directory.Combine("bare.md")), StringComparison.Ordinal);
        Assert.True(compared is ExitCodes.Ok or ExitCodes.Regressed, compareError);
        Assert.Contains("Memory / update=1 / 1,000 records / 1 threads | throughput |", comparison, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("render", "\"Kind\": \"later\"", "holds a run of kind 'later'")]
    [InlineData("compare", "\"Kind\": \"later\"", "holds a run of kind 'later'")]
    [InlineData("render", "\"Version\": 99", "has layout version 99")]
    [InlineData("compare", "\"Version\": 99", "has layout version 99")]
    public void A_file_of_an_unknown_kind_or_version_is_one_line_and_the_usage_code(string command, string field, string problem)
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("later.results.json");
        string version = field.StartsWith("\"Version\"", StringComparison.Ordinal) ? field : "\"Version\": 1";
        string kind = field.StartsWith("\"Kind\"", StringComparison.Ordinal) ? field : "\"Kind\": \"workloads\"";
        File.WriteAllText(path, $$"""{ "Schema": "{{ResultsFile.SchemaName}}", {{version}}, {{kind}}, "Results": [] }""");

        (int exitCode, string output, string error) = command == "render" ? Invoke("render", path) : Invoke("compare", path, path);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Equal(string.Empty, output);
        Assert.Single(error.TrimEnd().Split('\n'));
        Assert.Contains(path, error, StringComparison.Ordinal);
        Assert.Contains(problem, error, StringComparison.Ordinal);
    }
}
