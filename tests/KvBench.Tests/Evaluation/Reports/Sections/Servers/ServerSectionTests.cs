using KvBench.Core;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Servers;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Faster;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;
using KvBench.Tests.Stores.Servers;


namespace KvBench.Tests.Evaluation.Reports.Sections.Servers;

/// <summary>
/// The ADR file's server section, measured for real in a short form: every server row in the workload tables at each
/// tier, beside its own tool. Whether its servers stop is not asked here: other classes' fixtures may hold the same
/// servers while it runs (ServerLifecycleTests checks the stop of a suite's servers).
/// </summary>
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
    public async Task The_server_section_lists_every_server_row_beside_the_embedded_rows_at_each_tier_and_its_own_tool_from_runs_that_completed()
    {
        ServerRow[] servers = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null)];
        Assert.NotEmpty(servers);
        using var directory = new TempDirectory();
        var section = new ServerSection(s_short);

        AdrReport report = await AdrGenerator.MeasureAsync(
            [section],
            new AdrContext(directory.Combine("work"), directory.Combine("results"), cli: null, log: null),
            "the test");

        Assert.True(section.NotMeasured.Count == 0, string.Join(Environment.NewLine, section.NotMeasured));
        Assert.Empty(report.Problems());
        string[] rows = [.. servers.Select(row => row.Name), .. s_short.EmbeddedRows];
        Assert.Equal(servers.Select(row => row.Name).Order(), section.RoundTrips!.Select(roundTrip => roundTrip.Row).Order());
        Assert.Equal(s_short.Tiers, section.Workloads.Select(workloads => workloads.Scope.Durability));
        string markdown = report.ToMarkdown();
        foreach (WorkloadSection workloads in section.Workloads)
        {
            // A row that does not offer the tier (Garnet has no Synced) is left out of that tier's tables, and said to be.
            Durability tier = workloads.Scope.Durability;
            string[] tierRows = [.. rows.Where(row => StoreCatalog.Row(row).OpensAt(tier))];
            string[] withTools = [.. servers.Where(row => row.OwnBenchmark is not null && row.OpensAt(tier)).Select(row => row.Name)];
            Assert.Equal(tierRows.Order(), workloads.ThreadSweep!.Select(run => run.Store).Distinct().Order());
            Assert.Equal(tierRows.Order(), workloads.Ycsb!.Select(run => run.Store).Distinct().Order());
            Assert.Equal(tierRows.Order(), workloads.Scale!.Select(point => point.Store).Distinct().Order());
            Assert.All(servers.Where(row => !row.OpensAt(tier)), row =>
                Assert.Contains($"- {row.Name} is not in this tier's tables", markdown, StringComparison.Ordinal));
            Assert.Contains($"## {ServerSection.Chapter} at {tier}", markdown, StringComparison.Ordinal);
            Assert.Contains($"at {tier} durability", markdown, StringComparison.Ordinal);

            // Each row's figure beside its tool is the rate of a thread-sweep run of that row at that tier that completed with no wrong read and no error.
            OwnBenchmarkComparison[] comparisons = [.. section.OwnBenchmarks!.Where(comparison => comparison.Durability == tier)];
            Assert.Equal(withTools.Order(), comparisons.Select(comparison => comparison.Row).Distinct().Order());
            foreach (OwnBenchmarkComparison comparison in comparisons)
            {
                WorkloadResult puts = Assert.Single(workloads.ThreadSweep!, run =>
                    run.Store == comparison.Row
                        && run.Workload.Mix == OperationMix.WriteOnly
                        && run.Settings.Threads == comparison.Clients);
                WorkloadResult gets = Assert.Single(workloads.ThreadSweep!, run =>
                    run.Store == comparison.Row && run.Workload.Mix == OperationMix.ReadOnly && run.Settings.Threads == comparison.Clients);
                Assert.True(puts.Succeeded && gets.Succeeded);
                Assert.Equal(puts.OperationsPerSecond, comparison.RowPutsPerSecond);
                Assert.Equal(gets.OperationsPerSecond, comparison.RowGetsPerSecond);
                Assert.True(comparison.ToolPutsPerSecond > 0 && comparison.ToolGetsPerSecond > 0);
            }
        }

        // Garnet against FASTER, from the same sweep, at the tier both offer and at no other.
        if (servers.Any(row => row.Name == GarnetRow.RowName))
        {
            WorkloadSection buffered = section.Workloads.Single(workloads => workloads.Scope.Durability == Durability.Buffered);
            Assert.Equal(s_short.Suites.SweepThreads.Count * 2, section.Lineage.Count);
            Assert.All(section.Lineage, line =>
            {
                Assert.Equal(Durability.Buffered, line.Durability);
                OperationMix mix = line.Operation == "Put" ? OperationMix.WriteOnly : OperationMix.ReadOnly;
                Assert.Equal(
                    buffered.ThreadSweep!.Single(run =>
                        run.Store == GarnetRow.RowName
                            && run.Workload.Mix == mix
                            && run.Settings.Threads == line.Threads).OperationsPerSecond,
                    line.ServerPerSecond);
                Assert.Equal(
                    buffered.ThreadSweep!.Single(run =>
                        run.Store == FasterRow.RowName
                            && run.Workload.Mix == mix
                            && run.Settings.Threads == line.Threads).OperationsPerSecond,
                    line.InProcessPerSecond);
            });
            Assert.Contains($"### {GarnetRow.RowName} over loopback against {FasterRow.RowName} in-process", markdown, StringComparison.Ordinal);
        }

        Assert.Contains($"## {ServerSection.Chapter}", markdown, StringComparison.Ordinal);
        string[] tierChapters = markdown.Split($"## {ServerSection.Chapter} at ")[1..];
        Assert.Equal(s_short.Tiers.Count, tierChapters.Length);
        Assert.All(s_short.Tiers.Zip(tierChapters), tierChapter => Assert.All(
            rows.Where(row => StoreCatalog.Row(row).OpensAt(tierChapter.First)),
            row => Assert.Contains($"\n{row} | read-only | ", tierChapter.Second, StringComparison.Ordinal)));

        // The charts of the server section's suites are files of their own, apart from the embedded section's.
        Assert.All(report.Charts(), chart => Assert.StartsWith("servers-", chart.Id, StringComparison.Ordinal));
    }
}
