using System.CommandLine;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Capabilities;
using KvBench.Evaluation.Reports.Sections.Crash;
using KvBench.Evaluation.Reports.Sections.ServerKills;
using KvBench.Evaluation.Reports.Sections.Servers;
using KvBench.Evaluation.Reports.Sections.Survival;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Stores.Redis;

using static KvBench.Tests.Cli.InProcessCli;


namespace KvBench.Tests.Evaluation.Reports.Sections;

/// <summary>What a section of the ADR file gets from being one: measured in turn, printed in place, its charts drawn, its problems the run's.</summary>
public sealed class AdrSectionTests
{
    [Fact]
    public async Task A_section_is_measured_printed_in_its_place_and_its_charts_and_problems_are_the_files()
    {
        using var directory = new TempDirectory();
        var first = new CountingSection("first", problem: null);
        var second = new CountingSection("second", problem: "Counting failed: 3 is not 4");

        AdrReport report = await AdrGenerator.MeasureAsync(
            [first, second],
            new AdrContext(directory.Combine("work"), directory.Combine("results"), cli: null, log: null),
            "the test");

        Assert.Equal([1, 1], [first.Measured, second.Measured]);
        string markdown = report.ToMarkdown();
        int firstAt = markdown.IndexOf("## first", StringComparison.Ordinal);
        int secondAt = markdown.IndexOf("## second", StringComparison.Ordinal);
        int closingAt = markdown.IndexOf("closing of first", StringComparison.Ordinal);
        Assert.True(
            firstAt > 0
                && firstAt < secondAt
                && secondAt < closingAt
                && closingAt < markdown.IndexOf("## Machine", StringComparison.Ordinal),
            markdown);
        Assert.Equal(["count-first", "count-second"], report.Charts().Select(chart => chart.Id));
        Assert.Equal(["Counting failed: 3 is not 4"], report.Problems());
    }

    [Fact]
    public void Every_section_has_its_own_name_and_the_list_is_in_the_files_order()
    {
        IReadOnlyList<AdrSection> sections = AdrSections.Create(AdrPreset.Quick);
        IReadOnlyList<AdrSection> serverSections = AdrSections.CreateServers(AdrPreset.Quick);

        Assert.Equal(sections.Concat(serverSections).Select(section => section.Name), AdrSections.Names);
        // A section that runs only when named (the power-loss rounds) is left out of a run that names none.
        Assert.Contains(sections, section => section.RunsOnlyWhenNamed);
        Assert.Equal(
            sections.Where(section => !section.RunsOnlyWhenNamed).Select(section => section.Name),
            new AdrRequest { OutputFile = "adr.md", Command = "c" }.CreateSections().Select(section => section.Name));
        Assert.Equal(
            sections.Concat(serverSections).Where(section => !section.RunsOnlyWhenNamed).Select(section => section.Name),
            new AdrRequest { OutputFile = "adr.md", Command = "c", Servers = true }.CreateSections().Select(section => section.Name));
        Assert.Equal(
            ["crash", "powerloss", "survives"],
            new AdrRequest { OutputFile = "adr.md", Command = "c", Sections = ["survives", "powerloss", "crash"] }
                .CreateSections().Select(section => section.Name));
        Assert.IsType<ServerSection>(serverSections[0]);
        Assert.DoesNotContain(sections, section => section is ServerSection);
        Assert.Equal(AdrSections.Names.Count, AdrSections.Names.Distinct(StringComparer.OrdinalIgnoreCase).Count());
        Assert.IsType<CapabilitiesSection>(sections[0]);
        Assert.Equal(
            ["sqlite"],
            new AdrRequest
            {
                OutputFile = "adr.md",
                Command = "c",
                Sections = ["SQLite"],
            }.CreateSections().Select(section => section.Name));
        Assert.Throws<ArgumentException>(() => new AdrRequest { OutputFile = "adr.md", Command = "c", Sections = ["nope"] }.CreateSections());

        // The server sections run only when asked: named, or with --servers after the default sections.
        Assert.Equal(
            [ServerSection.SectionName],
            new AdrRequest
            {
                OutputFile = "adr.md",
                Command = "c",
                Sections = ["Servers"],
            }.CreateSections().Select(section => section.Name));
        Assert.DoesNotContain(new AdrRequest { OutputFile = "adr.md", Command = "c" }.CreateSections(), section => section is ServerSection);
        Assert.Contains(new AdrRequest { OutputFile = "adr.md", Command = "c", Servers = true }.CreateSections(), section => section is ServerSection);
    }

    [Fact]
    public void Kvbench_adr_section_runs_that_section_alone()
    {
        using var directory = new TempDirectory();
        string file = directory.Combine("adr.md");
        (int exitCode, string output, string error) = Invoke(
            [
                "adr", "--sections", "benchmarks", "--output", file, "--results", directory.Combine("no-results"),
                "--work-dir", directory.Combine("work")]);

        Assert.Equal(ExitCodes.Ok, exitCode);
        Assert.Equal(string.Empty, error);
        Assert.Contains($"Wrote {file}", output, StringComparison.Ordinal);
        string markdown = File.ReadAllText(file);
        Assert.Contains("## Benchmark results", markdown, StringComparison.Ordinal);
        Assert.Contains("No PointOperations results were found.", markdown, StringComparison.Ordinal);
        Assert.Contains("kvbench adr --output adr.md --sections benchmarks", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("## Considered Options", markdown, StringComparison.Ordinal);
        Assert.Contains("## Machine", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_section_that_continues_another_sections_chapter_prints_its_heading_alone_and_only_once_in_the_whole_file()
    {
        CrashRoundsResult held = new(MemoryRow.RowName, Durability.Buffered, Rounds: 2, Acknowledged: 10, Lost: 0, Torn: 0, ReopenFailures: []);
        var crash = new CrashRoundsSection(AdrPreset.Quick) { Results = [held] };
        var machine = new MachineInfo("Test CPU", 2, 8L << 30, "Debian GNU/Linux 12", ".NET 10", "ext4");
        string Render(params AdrSection[] sections) =>
            new AdrReport { Sections = sections, Machine = machine, Command = "the test", GeneratedAt = DateTimeOffset.UnixEpoch }.ToMarkdown();

        string alone = Render(crash);
        string whole = Render(new CapabilitiesSection(AdrPreset.Quick), crash);

        string durability = $"## {AdrSections.DurabilityChapter}";
        Assert.Equal([durability, "### Crash rounds", "## Machine"], Headings(alone));
        Assert.Equal(1, Headings(whole).Count(heading => heading == durability));
        Assert.True(whole.IndexOf(durability, StringComparison.Ordinal) < whole.IndexOf("### Crash rounds", StringComparison.Ordinal), whole);
        Assert.Equal(Headings(alone), Headings(whole).Where(Headings(alone).Contains));
    }

    [Fact]
    public void What_each_row_survives_sets_the_crash_rounds_and_the_server_kill_rounds_side_by_side_and_alone_writes_nothing()
    {
        var crash = new CrashRoundsSection(AdrPreset.Quick)
        {
            Results = [new(LmdbRow.RowName, Durability.Synced, Rounds: 2, Acknowledged: 10, Lost: 0, Torn: 0, ReopenFailures: [])],
        };
        var servers = new ServerKillRoundsSection(AdrPreset.Quick)
        {
            WriterKills = [new(RedisRow.RowName, Durability.Buffered, Rounds: 2, Acknowledged: 12, Lost: 0, Torn: 0, ReopenFailures: [])],
            Results = [
                new(
                    RedisRow.RowName, Durability.Buffered, Rounds: 2, Acknowledged: 11, Lost: 0, Torn: 0,
                    ReopenFailures: []) { Killed = CrashKill.Server }],
        };
        var machine = new MachineInfo("Test CPU", 2, 8L << 30, "Debian GNU/Linux 12", ".NET 10", "ext4");
        string Render(params AdrSection[] sections) =>
            new AdrReport { Sections = sections, Machine = machine, Command = "the test", GeneratedAt = DateTimeOffset.UnixEpoch }.ToMarkdown();

        string whole = Render(crash, new SurvivalSection(), servers);
        string alone = Render(new SurvivalSection());

        Assert.Contains("### What each row survives", whole, StringComparison.Ordinal);
        Assert.True(whole.IndexOf("### Crash rounds", StringComparison.Ordinal) < whole.IndexOf("### What each row survives", StringComparison.Ordinal), whole);
        Assert.Contains("LMDB | Synced | Synced | - | 2 | 10 | 0 | no server | - | - | a process kill |", whole, StringComparison.Ordinal);
        Assert.Contains(
            "Redis | Buffered | Buffered | `appendfsync no` | 2 | 12 | 0 | 2 | 11 | 0 | a process kill and a server kill |",
            whole,
            StringComparison.Ordinal);
        Assert.DoesNotContain("What each row survives", alone, StringComparison.Ordinal);
    }

    [Fact]
    public void Kvbench_adr_with_a_section_that_does_not_exist_is_a_usage_error_naming_the_sections()
    {
        (int exitCode, _, string error) = Invoke(["adr", "--sections", "nope"]);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains($"no section is named 'nope'; the sections are {string.Join(", ", AdrSections.Names)}.", error, StringComparison.Ordinal);
    }

    private static string[] Headings(string markdown) =>
        [.. markdown.Split('\n').Where(line => line.StartsWith("## ", StringComparison.Ordinal) || line.StartsWith("### ", StringComparison.Ordinal))];

    /// <summary>A section that counts its measurements, prints a heading and a closing line, places one chart and may fail.</summary>
    private sealed class CountingSection(string name, string? problem) : AdrSection
    {
        public override string Name => name;

        public int Measured { get; private set; }

        public override Task MeasureAsync(AdrContext context)
        {
            Measured++;
            return Task.CompletedTask;
        }

        public override void WriteTo(AdrMarkdown markdown)
        {
            markdown.Output.AppendLine($"## {name}").AppendLine();
            markdown.Charts(
                [
                    new Chart
                    {
                        Id = $"count-{name}",
                        Title = name,
                        Tier = "Buffered",
                        Kind = ChartKind.Bars,
                        X = new ChartAxis("Row", string.Empty),
                        Y = new ChartAxis("Count", "n"),
                        Categories = ["a"],
                        Series = [new ChartSeries(name, [1])],
                    }],
                $"One count of {name}.");
        }

        public override void WriteClosingTo(AdrMarkdown markdown)
        {
            if (name == "first")
            {
                markdown.Output.AppendLine("closing of first").AppendLine();
            }
        }

        public override IReadOnlyList<string> Problems() => problem is null ? [] : [problem];
    }
}
