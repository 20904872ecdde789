using System.Text.Json;
using System.Text.Json.Nodes;

using KvBench.Cli;
using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Tests.Evaluation.Reports.Charts;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Evaluation.Reports.Results;

public sealed class RunResultsTests
{
    private static readonly MachineInfo s_machine = new("Test CPU", 2, 8L << 30, "Debian GNU/Linux 12", ".NET 10", "ext4");

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    public async Task A_report_drawn_from_its_results_file_alone_prints_every_table_and_chart_the_run_printed(int stream)
    {
        AdrReport report = ChartReports.Create(stream);
        using var directory = new TempDirectory();
        string file = directory.Combine("run.results.json");
        await RunResults.Of(report).WriteAsync(file);

        AdrReport drawn = RunResults.ReadReport(file);

        Assert.Equal(report.ToMarkdown(), drawn.ToMarkdown());
        Assert.Equal(report.Charts().Select(chart => chart.Id), drawn.Charts().Select(chart => chart.Id));
    }

    [Fact]
    public async Task Every_section_reads_back_the_settings_it_ran_with_not_the_defaults_it_is_made_with()
    {
        // The quick preset's settings differ from the default ones a section is read back into.
        AdrReport report = new()
        {
            Sections = [.. AdrSections.Create(AdrPreset.Quick), .. AdrSections.CreateServers(AdrPreset.Quick)],
            Machine = s_machine,
            Command = "kvbench adr --quick",
            GeneratedAt = DateTimeOffset.UnixEpoch,
        };
        using var directory = new TempDirectory();
        string file = directory.Combine("run.results.json");
        await RunResults.Of(report).WriteAsync(file);

        RunResults read = RunResults.Read(file);
        AdrReport drawn = read.ToReport();

        Assert.Equal(AdrSections.Names, read.Sections.Select(section => section.Name));
        Assert.Equal(report.ToMarkdown(), drawn.ToMarkdown());
        Assert.Equal(
            RunResults.Of(report).Sections.Select(section => section.State.ToJsonString()),
            RunResults.Of(drawn).Sections.Select(section => section.State.ToJsonString()));
        Assert.Equal(RunResults.KvBenchVersion, read.KvBench);
        Assert.Equal(s_machine, read.Machine);
    }

    [Fact]
    public void A_row_is_written_as_its_name_and_read_back_as_the_catalogs_definition()
    {
        ServerRow redis = StoreCatalog.ServerRowNamed("Redis");
        var leftOut = new ServerLeftOut(redis, "the test leaves it out");

        string json = JsonSerializer.Serialize(leftOut, ResultsJson.Options);
        ServerLeftOut read = JsonSerializer.Deserialize<ServerLeftOut>(json, ResultsJson.Options)!;

        Assert.Contains("\"Row\": \"Redis\"", json, StringComparison.Ordinal);
        Assert.Same(redis, read.Row);
        string unknown = json.Replace("Redis", "Nope", StringComparison.Ordinal);
        Assert.Throws<JsonException>(() => JsonSerializer.Deserialize<ServerLeftOut>(unknown, ResultsJson.Options));
    }

    [Fact]
    public void A_file_that_is_not_json_not_a_results_file_or_of_another_version_is_refused_by_name()
    {
        using var directory = new TempDirectory();
        string Write(string name, string text)
        {
            string path = directory.Combine(name);
            File.WriteAllText(path, text);
            return path;
        }

        string notJson = Write("a.json", "{ not json");
        string other = Write("b.json", """{ "Store": "LMDB" }""");
        string later = Write("c.json", $$"""{ "Schema": "{{RunResults.SchemaName}}", "Version": 99 }""");

        string Refusal(string path) => Assert.Throws<ResultsFileException>(() => RunResults.Read(path)).Message;
        Assert.Contains("is not a results file KvBench can read", Refusal(notJson), StringComparison.Ordinal);
        Assert.Contains("is not a KvBench results file", Refusal(other), StringComparison.Ordinal);
        Assert.Contains("has layout version 99", Refusal(later), StringComparison.Ordinal);
        Assert.Throws<ResultsFileException>(() => RunResults.Read(directory.Combine("missing.json")));
    }

    [Fact]
    public void Kvbench_render_of_a_file_that_is_not_a_results_file_is_one_line_and_the_usage_code()
    {
        using var directory = new TempDirectory();
        string path = directory.Combine("a.json");
        File.WriteAllText(path, "[]");

        (int exitCode, string output, string error) = Invoke("render", path);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Equal(string.Empty, output);
        Assert.Single(error.TrimEnd().Split('\n'));
        Assert.Contains("holds neither a run's results nor a workload run", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_checked_in_evaluations_file_written_before_files_had_kinds_reads_and_renders_its_markdown()
    {
        string checkedIn = Path.Combine(Repository.Root(), "docs", "results", "kvbench-adr.results.json");
        using var directory = new TempDirectory();
        string markdown = directory.Combine("kvbench-adr.md");

        var read = Assert.IsType<RunResults>(ResultsFile.Read(checkedIn));
        ChartImages charts = await read.RenderAsync(markdown, checkedIn);

        Assert.Equal(RunResults.AdrKind, read.Kind);
        // The markdown says which PNGs were drawn, so it is the checked-in one only where gnuplot drew them all.
        if (charts.Problem is null)
        {
            Assert.Equal(File.ReadAllText(Path.Combine(Repository.Root(), "docs", "results", "kvbench-adr.md")), File.ReadAllText(markdown));
        }
        else
        {
            Assert.StartsWith("# Key-value stores for .NET", File.ReadAllText(markdown), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_checked_in_schema_is_the_one_the_result_types_give()
    {
        // KVBENCH_WRITE_SCHEMA=1 rewrites the checked-in file after a deliberate change to a result type.
        string path = Path.Combine(Repository.Root(), "docs", "results-file.schema.json");
        string generated = ResultsSchema.Generate().ToJsonString(new() { WriteIndented = true }) + "\n";
        if (Environment.GetEnvironmentVariable("KVBENCH_WRITE_SCHEMA") == "1")
        {
            File.WriteAllText(path, generated);
        }

        Assert.True(
            File.Exists(path) && File.ReadAllText(path).ReplaceLineEndings("\n") == generated,
            $"{path} is not the schema the result types give; rerun this test with KVBENCH_WRITE_SCHEMA=1 and commit the file.");
        JsonNode schema = JsonNode.Parse(generated)!;
        Assert.Equal(AdrSections.Names.Count, schema["$defs"]!["adr"]!["properties"]!["Sections"]!["items"]!["oneOf"]!.AsArray().Count);
        Assert.Equal(ResultsFile.Kinds.Order(), schema["properties"]!["Kind"]!["enum"]!.AsArray().Select(kind => (string)kind!).Order());
        Assert.Equal("results-file.schema.json", (string?)schema["$id"]);
    }

    [Fact]
    [Trait("Category", "Long")]
    public void A_quick_run_of_every_default_section_renders_again_from_its_results_file_to_the_same_file()
    {
        using var directory = new TempDirectory();
        string first = directory.Combine("run.md");
        (int measured, _, string measuredError) = Invoke("adr", "--quick", "--output", first, "--work-dir", directory.Combine("work"));
        Assert.True(measured == ExitCodes.Ok, measuredError);

        string again = directory.Combine("again.md");
        (int rendered, string output, string error) = Invoke("render", RunResults.PathFor(first), "--output", again);

        Assert.Equal(ExitCodes.Ok, rendered);
        Assert.Equal(string.Empty, error);
        Assert.Contains($"Wrote {again}", output, StringComparison.Ordinal);
        // Only the charts' folder differs: each file links the one named after it.
        Assert.Equal(File.ReadAllText(first), File.ReadAllText(again).Replace("again-charts/", "run-charts/", StringComparison.Ordinal));
        Assert.False(File.Exists(RunResults.PathFor(again)), "render must not write a results file of its own");
    }
}
