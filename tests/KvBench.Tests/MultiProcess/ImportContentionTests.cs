using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

using Xunit.Abstractions;

namespace KvBench.Tests.MultiProcess;

/// <summary>
/// <c>kvbench contend</c>'s scenario, briefly, through real processes of the built CLI: a ui measured alone and while a
/// cli imports, the lag of each batch, and every acknowledged write read back.
/// </summary>
[Trait("Category", "MultiProcess")]
[Collection(MultiProcessCollection.Name)]
public sealed class ImportContentionTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(StoreNames.SqliteWal)]
    [InlineData(StoreNames.Lmdb)]
    public async Task The_ui_is_measured_alone_and_during_the_import_the_lag_is_measured_and_nothing_acknowledged_is_lost(string store)
    {
        using var directory = new TempDirectory();

        ImportContentionResult result = await new ImportContention(KvBenchCli.Locate()).RunAsync(store, directory.Combine(store), ImportContentionSettings.Smoke);

        string report = Describe(result);
        Assert.True(result.Succeeded, report);
        Assert.Equal(StoreAccess.ReadWrite, result.UiAccess);
        Assert.True(result.ClockShared, report);
        foreach (WorkloadResult? phase in new[] { result.UiAlone, result.UiDuringImport })
        {
            Assert.All(Assert.IsType<WorkloadResult>(phase).Operations, operation => Assert.True(operation.Latency.Count > 0, report));
        }

        ImportReport import = Assert.IsType<ImportReport>(result.Import);
        Assert.NotEmpty(import.AcknowledgedBatches);
        Assert.True(import.RecordsPerSecond > 0, report);
        LatencySummary lag = Assert.IsType<LatencySummary>(result.VisibilityLag);
        Assert.Equal(import.AcknowledgedBatches.Count, lag.Count + result.Unseen);
        Assert.True(lag.Count > 0, report);

        // Every record of every acknowledged batch, and every ui record at the version last acknowledged, came back.
        Assert.Equal(0, result.Lost);
        Assert.Equal(import.AcknowledgedBatches.Count * (long)import.BatchSize, result.ImportReadBack!.Checked);
        Assert.Equal(ImportContentionSettings.Smoke.UiRecords, result.UiReadBack!.Checked);
        Assert.NotEmpty(result.Ui!.AcknowledgedIndexes);
    }

    [Fact]
    public async Task On_a_row_one_process_at_a_time_the_import_is_not_possible_and_the_cli_gets_the_typed_error()
    {
        using var directory = new TempDirectory();

        ImportContentionResult result = await new ImportContention(KvBenchCli.Locate()).RunAsync(StoreNames.Faster, directory.Combine("faster"), ImportContentionSettings.Smoke);

        string report = Describe(result);
        Assert.True(result.Succeeded, report);
        Assert.Equal(nameof(StoreLockedException), result.NotPossible?.Error);
        Assert.NotNull(result.UiAlone);
        Assert.Null(result.UiDuringImport);
        Assert.Equal(0, result.Lost);
        Assert.Equal(ImportContentionSettings.Smoke.UiRecords, result.ReadBack);
    }

    /// <summary>The ADR file's section for <paramref name="result"/> (checked to hold its row), and the failure if any.</summary>
    private string Describe(ImportContentionResult result)
    {
        using var scratch = new TempDirectory();
        var report = new AdrReport
        {
            Measurements = [],
            Machine = MachineInfo.Collect(scratch.Path),
            Settings = ProbeSettings.Quick,
            Command = "kvbench adr --quick",
            GeneratedAt = DateTimeOffset.UtcNow,
            Contention = [result],
        };
        string markdown = report.ToMarkdown();
        string section = markdown[markdown.IndexOf("## The UI while the CLI imports", StringComparison.Ordinal)..markdown.IndexOf("## Claims checked", StringComparison.Ordinal)];
        output.WriteLine(section);
        output.WriteLine(result.Failure ?? "no failure");
        Assert.Contains($"\n{result.Store}", section, StringComparison.Ordinal);
        Assert.Equal(result.Failure is null ? [] : [$"Contention failed: {result.Failure}"], report.Problems());
        return section + result.Failure;
    }
}
