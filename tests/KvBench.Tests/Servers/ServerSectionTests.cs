using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Servers;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Tests.Servers;

/// <summary>The ADR file's server section, measured for real in a short form: every server row in the workload tables, beside its own tool, its servers stopped after.</summary>
[Trait("Category", "Servers")]
[Collection(ServerLifecycleCollection.Name)]
public sealed class ServerSectionTests
{
    private static readonly ServerSectionSettings s_short = new()
    {
        Suites = new SuiteSettings
        {
            Records = 500,
            YcsbThreads = 2,
            SweepThreads = [1, 2],
            ScaleRecords = [500],
            Warmup = TimeSpan.FromMilliseconds(20),
            Duration = TimeSpan.FromMilliseconds(100),
        },
        RoundTrips = 50,
    };

    [Fact]
    public async Task The_server_section_lists_every_server_row_beside_the_embedded_rows_and_its_own_tool_from_runs_that_completed_then_stops_the_servers()
    {
        ServerRow[] servers = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null)];
        Assert.NotEmpty(servers);
        using var directory = new TempDirectory();
        var section = new ServerSection(s_short);

        AdrReport report = await AdrGenerator.MeasureAsync([section], new AdrContext(directory.Combine("work"), directory.Combine("results"), cli: null, log: null), "the test");

        Assert.True(section.NotMeasured.Count == 0, string.Join(Environment.NewLine, section.NotMeasured));
        Assert.Empty(report.Problems());
        string[] rows = [.. servers.Select(row => row.Name), .. s_short.EmbeddedRows];
        Assert.Equal(rows.Order(), section.Workloads.ThreadSweep!.Select(run => run.Store).Distinct().Order());
        Assert.Equal(rows.Order(), section.Workloads.Ycsb!.Select(run => run.Store).Distinct().Order());
        Assert.Equal(rows.Order(), section.Workloads.Scale!.Select(point => point.Store).Distinct().Order());
        Assert.Equal(servers.Select(row => row.Name).Order(), section.RoundTrips!.Select(roundTrip => roundTrip.Row).Order());

        // Each row's figure beside its tool is the rate of a thread-sweep run of that row that completed with no wrong read and no error.
        string[] withTools = [.. servers.Where(row => row.OwnBenchmark is not null).Select(row => row.Name)];
        Assert.Equal(withTools.Order(), section.OwnBenchmarks!.Select(comparison => comparison.Row).Distinct().Order());
        foreach (OwnBenchmarkComparison comparison in section.OwnBenchmarks!)
        {
            WorkloadResult puts = Assert.Single(section.Workloads.ThreadSweep!, run => run.Store == comparison.Row && run.Workload.Mix == OperationMix.WriteOnly && run.Settings.Threads == comparison.Clients);
            WorkloadResult gets = Assert.Single(section.Workloads.ThreadSweep!, run => run.Store == comparison.Row && run.Workload.Mix == OperationMix.ReadOnly && run.Settings.Threads == comparison.Clients);
            Assert.True(puts.Succeeded && gets.Succeeded);
            Assert.Equal(puts.OperationsPerSecond, comparison.RowPutsPerSecond);
            Assert.Equal(gets.OperationsPerSecond, comparison.RowGetsPerSecond);
            Assert.True(comparison.ToolPutsPerSecond > 0 && comparison.ToolGetsPerSecond > 0);
        }

        string markdown = report.ToMarkdown();
        Assert.Contains($"## {ServerSection.Chapter}", markdown, StringComparison.Ordinal);
        Assert.Contains("at Synced durability", markdown, StringComparison.Ordinal);
        foreach (string row in rows)
        {
            Assert.Contains($"\n{row} | read-only | ", markdown, StringComparison.Ordinal);
        }

        // The charts of the server section's suites are files of their own, apart from the embedded section's.
        Assert.All(report.Charts(), chart => Assert.StartsWith("servers-", chart.Id, StringComparison.Ordinal));

        // Nothing else held a server (this collection runs alone), so the section's stop was the last.
        Assert.All(servers, row => Assert.Null(row.EndpointFor(s_short.Durability)));
    }
}
