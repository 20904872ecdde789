using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.Contention;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Faster;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Sqlite;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// <c>kvbench contend</c>'s scenario, briefly, through real processes of the built CLI: a ui measured alone and while a
/// cli imports, the lag of each batch, and every acknowledged write read back.
/// </summary>
[Trait("Category", "MultiProcess")]
[Collection(MultiProcessCollection.Name)]
public sealed class ImportContentionTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(SqliteRow.WalName)]
    [InlineData(LmdbRow.RowName)]
    public async Task The_ui_is_measured_alone_and_during_the_import_the_lag_is_measured_and_nothing_acknowledged_is_lost(string store)
    {
        using var directory = new TempDirectory();

        ImportContentionResult result = await new ImportContention(KvBenchCli.Locate()).RunAsync(
            store,
            directory.Combine(store),
            ImportContentionSettings.Smoke);

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

        // SQLite's writer times each commit (its WAL hook), so the table can say what PutMany did after its batch was
        // visible; a row that cannot tell leaves the cell empty rather than guess.
        if (store == SqliteRow.WalName)
        {
            LatencySummary afterCommit = Assert.IsType<LatencySummary>(result.CommitToAcknowledged);
            Assert.Equal(import.AcknowledgedBatches.Count, afterCommit.Count);
            Assert.Equal(import.AcknowledgedBatches.Count, import.CommittedAt.Count);
            Assert.True(Assert.IsType<LatencySummary>(result.CommitCheckpoints).Count <= afterCommit.Count, report);
            Assert.Contains("auto-checkpoint in ", report, StringComparison.Ordinal);

            // Every batch seen early fell somewhere in the cli's PutMany, and the section says where, from these counts.
            EarlySightings where = Assert.IsType<EarlySightings>(result.SeenEarlyWhere);
            Assert.Equal(result.SeenBeforeAcknowledged, where.BeforeHook + where.DuringCheckpoint + where.AfterHook);
            CommitWal wal = Assert.IsType<CommitWal>(result.CommitWal);
            Assert.Equal(1_000, wal.AutoCheckpointFrames);
            Assert.InRange(wal.MedianFrames, 1, wal.MaxFrames);
            Assert.Contains($"{store}: ", report, StringComparison.Ordinal);
            Assert.Contains($"it was visible {WorkloadCells.Latency(afterCommit.P50)} p50", report, StringComparison.Ordinal);
        }
        else
        {
            Assert.Null(result.CommitToAcknowledged);
            Assert.Null(result.SeenEarlyWhere);
            Assert.Empty(import.CommittedAt);
            Assert.Empty(ContentionTables.ContentionFindings([result]));
        }

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

        ImportContentionResult result = await new ImportContention(KvBenchCli.Locate()).RunAsync(
            FasterRow.RowName,
            directory.Combine("faster"),
            ImportContentionSettings.Smoke);

        string report = Describe(result);
        Assert.True(result.Succeeded, report);
        Assert.Equal(nameof(StoreLockedException), result.NotPossible?.Error);
        Assert.NotNull(result.UiAlone);
        Assert.Null(result.UiDuringImport);
        Assert.Equal(0, result.Lost);
        Assert.Equal(ImportContentionSettings.Smoke.UiRecords, result.ReadBack);
    }

    /// <summary>The finding names the cause the split of the early batches shows: the checkpoint only where most fell in it.</summary>
    [Theory]
    [InlineData(9, 1, "the auto-checkpoint, which runs inside the committing PutMany after the commit is visible, explains most of them")]
    [InlineData(2, 8, "the auto-checkpoint explains only some of them; most fell in the plain time between the commit becoming visible and PutMany returning")]
    [InlineData(0, 10, "the auto-checkpoint explains none of them; they fell in the plain time")]
    public void The_finding_names_the_cause_the_measured_split_shows(long duringCheckpoint, long afterHook, string cause)
    {
        var summary = new LatencySummary(Count: 10, Mean: 2e6, P50: 2e6, P95: 3e6, P99: 3e6, P999: 3e6, Max: 3e6);
        var result = new ImportContentionResult
        {
            Store = SqliteRow.WalName,
            Level = MultiProcessLevel.Shared,
            UiAccess = StoreAccess.ReadWrite,
            Settings = ImportContentionSettings.Smoke,
            Durability = Durability.Buffered,
            SeenBeforeAcknowledged = duringCheckpoint + afterHook,
            SeenEarlyBy = summary,
            CommitToAcknowledged = summary,
            HookToAcknowledged = summary,
            CommitCheckpoints = summary with { Count = duringCheckpoint },
            SeenEarlyWhere = new EarlySightings(BeforeHook: 0, duringCheckpoint, afterHook),
            CommitWal = new CommitWal(AutoCheckpointFrames: 1_000, MedianFrames: 1_500, MaxFrames: 4_000),
        };

        string finding = Assert.Single(ContentionTables.ContentionFindings([result]));

        Assert.StartsWith(
            $"{SqliteRow.WalName}: 10 of 10 batches were seen before the cli's PutMany returned, by 2 ms p50 and 3 ms at most.",
            finding,
            StringComparison.Ordinal);
        Assert.Contains(cause, finding, StringComparison.Ordinal);
        Assert.Equal(
            duringCheckpoint > 0,
            finding.Contains(
                "The WAL held 1,500 frames after the median commit (4,000 at most) against the writer's threshold of " +
                    "1,000: SQLite starts the WAL over only",
                StringComparison.Ordinal));
    }

    /// <summary>The ADR file's section for <paramref name="result"/> (checked to hold its row), and the failure if any.</summary>
    private string Describe(ImportContentionResult result)
    {
        using var scratch = new TempDirectory();
        var report = new AdrReport
        {
            Sections = [new ContentionSection(result.Settings) { Results = [result] }],
            Machine = MachineInfo.Collect(scratch.Path),
            Command = "kvbench adr --quick",
            GeneratedAt = DateTimeOffset.UtcNow,
        };
        string markdown = report.ToMarkdown();
        string section = markdown[
            markdown.IndexOf(
                "## The UI while the CLI imports",
                StringComparison.Ordinal)..markdown.IndexOf("## Machine", StringComparison.Ordinal)];
        output.WriteLine(section);
        output.WriteLine(result.Failure ?? "no failure");
        Assert.Contains($"\n{result.Store}", section, StringComparison.Ordinal);
        Assert.Equal(result.Failure is null ? [] : [$"Contention failed: {result.Failure}"], report.Problems());
        return section + result.Failure;
    }
}
