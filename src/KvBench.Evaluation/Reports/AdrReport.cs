using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Sqlite;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// The markdown an ADR author pastes into a decision record: the "Considered Options" table of
/// the NexusMods decision record "Use SqlLite as a datastore" with every cell measured, the operation table from the latest benchmark run, the machine, and the command
/// that regenerates it all.
/// </summary>
public sealed class AdrReport
{
    /// <summary>The operation table's columns, in the order decision records use.</summary>
    public static readonly IReadOnlyList<string> OperationColumns =
        ["Method", "Type", AcknowledgedTier.ColumnName, "ValueBytes", "Mean", "Error", "StdDev", "Gen0", "Gen1", "Gen2", "Allocated", "Op/s"];

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The measured rows, in table order.</summary>
    public required IReadOnlyList<StoreMeasurement> Measurements { get; init; }

    /// <summary>Rows that could not be measured here, with the reason.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Unavailable { get; init; } = [];

    /// <summary>The package and native library versions of each row.</summary>
    public IReadOnlyDictionary<string, string> Engines { get; init; } = new Dictionary<string, string>();

    /// <summary>The machine.</summary>
    public required MachineInfo Machine { get; init; }

    /// <summary>The probe settings used.</summary>
    public required ProbeSettings Settings { get; init; }

    /// <summary>The point-operation benchmark report, when a run left one.</summary>
    public BenchmarkReport? PointOperations { get; init; }

    /// <summary>The synced-writes benchmark report, when a run left one.</summary>
    public BenchmarkReport? SyncedPuts { get; init; }

    /// <summary>The ratio tables (adapter / raw driver, naive / tuned) and goal checks of the latest point-operation run, as markdown.</summary>
    public string? Ratios { get; init; }

    /// <summary>YCSB A to F on every row, when the run measured them.</summary>
    public IReadOnlyList<WorkloadResult>? Ycsb { get; init; }

    /// <summary>Crash rounds per row and tier; <see langword="null"/> when no second process could be started.</summary>
    public IReadOnlyList<CrashRoundsResult>? CrashRounds { get; init; }

    /// <summary>The thread sweep on every row, when the run measured it.</summary>
    public IReadOnlyList<WorkloadResult>? ThreadSweep { get; init; }

    /// <summary>The scale sweep on every row, when the run measured it.</summary>
    public IReadOnlyList<ScalePoint>? Scale { get; init; }

    /// <summary>The ui while the cli imports, on every row that keeps its data in files, when the run measured it.</summary>
    public IReadOnlyList<ImportContentionResult>? Contention { get; init; }

    /// <summary>SQLite's strategies, busy trap, upserts and pragmas, when the run measured them.</summary>
    public SqliteResults? Sqlite { get; init; }

    /// <summary>The command that regenerates the file.</summary>
    public required string Command { get; init; }

    /// <summary>When the measurements were taken.</summary>
    public required DateTimeOffset GeneratedAt { get; init; }

    /// <summary>
    /// What makes the run that wrote this report no result, one line each: a declared capability a probe contradicted
    /// ("Claim contradicted: ..."), or a workload run with a wrong read or an error ("Workload failed: ..."). Empty when
    /// every claim held and every run was right; the CLI and the evaluation print these and exit with 1 when any.
    /// </summary>
    public IReadOnlyList<string> Problems() =>
    [
        .. Measurements.SelectMany(row => row.Disagreements()).Select(disagreement => $"Claim contradicted: {disagreement}"),
        .. (Ycsb ?? []).Concat(ThreadSweep ?? []).Concat(ScaleRuns).Select(run => run.Failure).OfType<string>().Select(failure => $"Workload failed: {failure}"),
        .. (CrashRounds ?? []).Where(result => !result.Held).Select(result =>
            $"Crash rounds failed: {result.Store} at {result.Durability}: {result.Lost:N0} of {result.Acknowledged:N0} acknowledged records lost, {result.Torn:N0} torn, {result.ReopenFailures.Count} reopens failed"),
        .. (Contention ?? []).Select(run => run.Failure).OfType<string>().Select(failure => $"Contention failed: {failure}"),
        .. (Sqlite?.Problems() ?? []).Select(problem => $"SQLite suite failed: {problem}"),
    ];

    /// <summary>Every chart the file carries, in the order its tables come: each built from the results its table is printed from.</summary>
    public IReadOnlyList<Chart> Charts() =>
    [
        .. PointOperations is null ? [] : AdrCharts.PointOperations(PointOperations),
        .. SyncedPuts is null ? [] : AdrCharts.SyncedPuts(SyncedPuts),
        .. Ycsb is null ? [] : AdrCharts.YcsbP99(Ycsb).Concat(AdrCharts.YcsbPercentiles(Ycsb)),
        .. ThreadSweep is null ? [] : AdrCharts.Threads(ThreadSweep),
        .. Scale is null ? [] : AdrCharts.Scale(Scale),
    ];

    /// <summary>
    /// Writes the file to <paramref name="markdownFile"/> and its PNG charts, with their data files and gnuplot scripts,
    /// into the folder beside it (<see cref="ChartFiles.FolderFor"/>), which the file links relatively. What
    /// <c>kvbench adr</c> and the evaluation run both call.
    /// </summary>
    /// <returns>What was drawn; its <see cref="ChartImages.Problem"/> says in one line why a PNG is missing.</returns>
    public async Task<ChartImages> WriteAsync(string markdownFile, string? gnuplot = null)
    {
        string folder = ChartFiles.FolderFor(markdownFile);
        ChartImages images = await ChartFiles.WriteAsync(Charts(), folder, Machine.Summary(GeneratedAt), gnuplot).ConfigureAwait(false);
        await File.WriteAllTextAsync(markdownFile, ToMarkdown(images)).ConfigureAwait(false);
        return images;
    }

    /// <summary>The "Considered Options" table: one row per store, each cell a measurement.</summary>
    public MarkdownTable CapabilityTable()
    {
        var table = new MarkdownTable("Option", "Arbitrary Sized Keys", "Arbitrary Sized Values", "Arbitrary Database Size", "Multi-Process Access", "Prefixed Key Scans", "RW/sec");
        foreach (StoreMeasurement row in Measurements)
        {
            table.Add(row.Name, SizeCell(row.Key), SizeCell(row.Value), GrowthCell(row.Growth), MultiProcessCell(row.MultiProcess), ScanCell(row.Scan), ThroughputCell(row));
        }

        foreach ((string name, _) in Unavailable)
        {
            table.Add(name, "Not available here¹", "-", "-", "-", "-", "-");
        }

        return table;
    }

    /// <summary>Renders the whole file: its Mermaid charts always, links to the PNGs in <paramref name="images"/> when given.</summary>
    public string ToMarkdown(ChartImages? images = null)
    {
        var output = new StringBuilder();
        output.AppendLine(s_numbers, $"# Embedded key-value stores for .NET, measured {GeneratedAt:yyyy-MM-dd}").AppendLine();
        output.AppendLine(s_numbers, $"Generated by KvBench on {GeneratedAt:yyyy-MM-dd HH:mm} UTC. Every cell below was measured on the machine described at the end; nothing is typed by hand. Regenerate with:").AppendLine();
        output.AppendLine("```bash").AppendLine(Command).AppendLine("```").AppendLine();

        output.AppendLine("## Considered Options").AppendLine();
        CapabilityTable().WriteTo(output);
        output.AppendLine(s_numbers, $"- Keys and values: the longest that was stored and read back byte-exact, searched by doubling then bisection up to {Bytes(Settings.KeySearchLimitBytes)} (keys) and {Bytes(Settings.ValueSearchLimitBytes)} (values); \"Yes\" means the search limit itself round-tripped.");
        output.AppendLine(s_numbers, $"- Database size: the store was opened asking for {Bytes(Settings.GrowthInitialBytes)} (honoured by stores that preallocate, such as LMDB's map) and written {Settings.GrowthFactor:N0}x that ({Bytes(Settings.GrowthInitialBytes * Settings.GrowthFactor)}) in 64 KiB values without reopening, then read back; where the disk had less than twice that free, as far as it allowed (the cell says so). `--full` grows every row past 4 GiB.");
        output.AppendLine("- Multi-process access: two real processes on one directory; \"One writer + readers\" means a second process may open read-only or as a secondary and sees flushed writes.");
        output.AppendLine(s_numbers, $"- Prefixed key scans: one store grown through {string.Join(", ", Settings.ScanStoreSizes.Select(size => size.ToString("N0", s_numbers)))} records, a scan matching 5 keys timed at each size (median of 7); the growth exponent b of time ∝ records^b fitted to the medians is at most {PrefixScanProbe.IndexedBelow:0.00} for an ordered index and at least {PrefixScanProbe.FullScanAbove:0.00} for a full scan; between the two the probe measures again, up to {Settings.ScanRounds} rounds, then says \"Inconclusive\".");
        output.AppendLine(s_numbers, $"- RW/sec: one thread, Buffered durability, 9-byte keys and 128-byte values over {Settings.ThroughputRecords:N0} preloaded records, {Settings.ThroughputDuration.TotalSeconds:0.#} s of reads (Get) then {Settings.ThroughputDuration.TotalSeconds:0.#} s of overwrites (Put).");
        foreach ((string name, string reason) in Unavailable)
        {
            output.AppendLine(s_numbers, $"- ¹ {name}: {reason}");
        }

        output.AppendLine().AppendLine("## Durability").AppendLine();
        var durability = new MarkdownTable("Option", "Tiers whose flushed writes survived a reopen", "Tiers declared", "Acknowledged, unflushed write after kill -9", "Engine");
        foreach (StoreMeasurement row in Measurements)
        {
            string killCell = row.UnflushedWriteSurvivesKill switch
            {
                true => "Survived",
                false => "Lost (durable only at Flush)",
                null => row.Declared.Durability == DurabilityTiers.None ? "Lost (memory only)" : "Not measured",
            };
            durability.Add(row.Name, TiersCell(row.SurvivesReopen), TiersCell(row.Declared.Durability), killCell, Engines.GetValueOrDefault(row.Name, "-"));
        }

        durability.WriteTo(output);
        output.AppendLine("Buffered: an acknowledged write survives the process being killed. Synced: it also survives a power cut (the store flushes to the device; power loss itself is not simulated here). A tier a store refuses is \"not offered\", never replaced by a weaker one.").AppendLine();
        if (CrashRounds is { Count: > 0 })
        {
            output.AppendLine("### Crash rounds").AppendLine();
            output.Append(CrashTable.ToMarkdown(CrashRounds));
            output.AppendLine("Each round starts a writer process that puts records one at a time and acknowledges each after `Put` returned (after `Flush` for a row that holds writes in memory until then), kills it with SIGKILL at a random moment (seeded) up to 250 ms after its first acknowledgement, reopens the store and reads every acknowledged record back: Lost counts those missing or with other bytes; Torn counts records written but not yet acknowledged that came back with bytes that are neither nothing nor the record. `kvbench crash --store <row> --durability <tier> --dir <dir> --rounds N` runs more; `KVBENCH_CRASH_ROUNDS` sets the rounds here.").AppendLine();
        }

        output.AppendLine("## Benchmark results").AppendLine();
        WriteBenchmark(output, PointOperations, "PointOperations", "Put, Get and HaveKey at Buffered durability for every row, 9-byte keys, 128- and 1028-byte values, warm data (the dataset fits in the page cache).");
        if (PointOperations is not null)
        {
            WriteCharts(output, AdrCharts.PointOperations(PointOperations), images, "Mean time per call of every catalog row (raw baselines and naive usages are in the ratio tables below). The charts show time, not operations per second: in time, the in-memory rows (FASTER holds writes in memory until Flush; Memory is the floor, not a candidate) are the short bars they are, where in operations per second they would flatten every store that writes to a file.");
        }

        if (PointOperations is not null)
        {
            output.AppendLine("### Beside the NexusMods record").AppendLine();
            output.AppendLine(s_numbers, $"The decision record \"Use SqlLite as a datastore\" (NexusMods) published the table this one follows, measured on its authors' machine: its means and allocations are quoted here as published, beside this run's at {PublishedPointOperations.ValueBytes}-byte values and Buffered durability. A ratio far from 1 is a different machine, package version or usage, or (for LMDB's Put) a different durability.").AppendLine();
            PublishedPointOperations.Table(PointOperations).WriteTo(output);
        }

        if (Ratios is not null)
        {
            output.AppendLine("### What the abstraction and the usage cost").AppendLine();
            // The ratio file is a document of its own; its headings sit one level below this section here.
            output.AppendLine(System.Text.RegularExpressions.Regex.Replace(Ratios.Trim(), "^## ", "#### ", System.Text.RegularExpressions.RegexOptions.Multiline)).AppendLine();
        }

        WriteBenchmark(output, SyncedPuts, "SyncedPuts", "Put and a 100-item PutMany at Synced durability, for the rows that offer it.");
        if (SyncedPuts is not null)
        {
            WriteCharts(output, AdrCharts.SyncedPuts(SyncedPuts), images, "Mean time per Put and per item of a PutMany: what one device flush costs each row, and how much a batch saves.");
        }


        WriteWorkloads(output, images);
        WriteContention(output);
        if (Sqlite is not null)
        {
            SqliteTables.WriteSection(output, Sqlite, Command);
        }

        IReadOnlyList<string> disagreements = [.. Measurements.SelectMany(row => row.Disagreements())];
        output.AppendLine("## Claims checked").AppendLine();
        if (disagreements.Count == 0)
        {
            output.AppendLine("Every adapter's declared capabilities agree with the measurements above.").AppendLine();
        }
        else
        {
            foreach (string disagreement in disagreements)
            {
                output.AppendLine(s_numbers, $"- {disagreement}");
            }

            output.AppendLine();
        }

        output.AppendLine("## Machine").AppendLine();
        output.AppendLine(s_numbers, $"- CPU: {Machine.Cpu}, {Machine.LogicalCores} logical cores");
        output.AppendLine(s_numbers, $"- Memory: {Machine.MemoryBytes / (1024.0 * 1024 * 1024):0.#} GiB");
        output.AppendLine(s_numbers, $"- OS: {Machine.OperatingSystem}");
        output.AppendLine(s_numbers, $"- Runtime: {Machine.Runtime}");
        output.AppendLine(s_numbers, $"- File system of the data directory: {Machine.FileSystem}");
        return output.ToString();
    }

    /// <summary>"511 B", "1,024 B", "16 MiB", "4.5 GiB": whole mebibytes as such (gibibytes from 1 GiB), anything else in bytes.</summary>
    public static string Bytes(long bytes) => bytes switch
    {
        >= 1L << 30 when bytes % (1024 * 1024) == 0 => string.Create(s_numbers, $"{bytes / (double)(1L << 30):0.##} GiB"),
        >= 1024 * 1024 when bytes % (1024 * 1024) == 0 => string.Create(s_numbers, $"{bytes / (1024 * 1024):N0} MiB"),
        _ => string.Create(s_numbers, $"{bytes:N0} B"),
    };

    private static string SizeCell(SizeMeasurement size) =>
        size.ReachedSearchLimit ? $"Yes (≥ {Bytes(size.SearchLimitBytes)} tested)" : $"No (max {Bytes(size.LargestAcceptedBytes)})";

    /// <summary>The "Arbitrary Database Size" cell for <paramref name="growth"/>.</summary>
    public static string GrowthCell(GrowthMeasurement growth) =>
        growth.Grew
            ? $"Yes ({Bytes(growth.WrittenBytes)} written after a {Bytes(growth.InitialBytes)} start, no reopen{(growth.CappedByDiskFreeBytes is { } free ? $"; stopped short of {Bytes(growth.TargetBytes)}: the disk had {Bytes(free)} free" : string.Empty)})"
            : $"No ({growth.Failure} after {Bytes(growth.WrittenBytes)} from a {Bytes(growth.InitialBytes)} start)";

    private static string MultiProcessCell(MultiProcessMeasurement? measurement) => measurement switch
    {
        null => "Not measured",
        { Measured: null } => "No consistent level (see Claims checked)",
        _ => LevelCell(measurement.Measured.Value),
    };

    private static string LevelCell(MultiProcessLevel level) => level switch
    {
        MultiProcessLevel.Shared => "Yes (shared read/write)",
        MultiProcessLevel.OneWriter => "One writer + readers",
        MultiProcessLevel.Exclusive => "No (second open fails fast)",
        MultiProcessLevel.InProcess => "No (in-process memory)",
        _ => level.ToString(),
    };

    /// <summary>The "Prefixed Key Scans" cell for <paramref name="scan"/>.</summary>
    public static string ScanCell(ScanMeasurement scan)
    {
        string verdict = scan.Verdict switch
        {
            ScanVerdict.OrderedIndex => "Yes, ordered index",
            ScanVerdict.FullScan => "Full scan",
            _ => string.Create(s_numbers, $"Inconclusive after {scan.Rounds} rounds"),
        };
        return string.Create(s_numbers, $"{verdict} ({scan.SizeRatio:0}x records took {scan.TimeRatio:0.0}x as long; growth exponent {scan.Exponent:0.00})");
    }

    /// <summary>Writes a kill loses are not Buffered writes: the cell says so rather than compare them as equals.</summary>
    private static string ThroughputCell(StoreMeasurement row) =>
        string.Create(s_numbers, $"{Round(row.Throughput.ReadsPerSecond):N0} reads / {Round(row.Throughput.WritesPerSecond):N0} writes")
        + (row.UnflushedWriteSurvivesKill == false || (row.UnflushedWriteSurvivesKill is null && !row.Declared.WritesSurviveKillBeforeFlush) ? " (writes held in memory until Flush)" : string.Empty);

    private static string TiersCell(DurabilityTiers tiers) => tiers switch
    {
        DurabilityTiers.None => "None",
        DurabilityTiers.All => "Buffered, Synced",
        _ => tiers.ToString(),
    };

    /// <summary>Three significant figures: a single-thread loop on a shared machine is not more precise than that.</summary>
    private static double Round(double value)
    {
        if (value <= 0)
        {
            return 0;
        }

        double scale = Math.Pow(10, Math.Floor(Math.Log10(value)) - 2);
        return Math.Round(value / scale) * scale;
    }

    private void WriteWorkloads(StringBuilder output, ChartImages? images)
    {
        if (Ycsb is null && ThreadSweep is null && Scale is null)
        {
            return;
        }

        output.AppendLine("## Workloads").AppendLine();
        WorkloadResult? sample = Ycsb?.FirstOrDefault() ?? ThreadSweep?.FirstOrDefault();
        // The scale sweep's own paragraph says how it loads; this one describes the suites on one load.
        if (sample is not null)
        {
            output.AppendLine(s_numbers, $"Every row loaded with {sample.Workload.RecordCount:N0} records (9-byte keys, {sample.Workload.ValueBytes}-byte values) in a fresh directory at Buffered durability, then driven by the workload runner: closed loop, {sample.Settings.Warmup.TotalSeconds:0.##} s of warm-up and {sample.Settings.Duration.TotalSeconds:0.##} s measured per run, every operation timed into a histogram (p50 to max per operation, not per iteration), every read checked against the versions written for its key. On {Machine.LogicalCores} logical cores, runs of more threads than cores measure contention, not parallelism. Longer runs: `kvbench ycsb` and `kvbench sweep threads` (5 s per run).").AppendLine();
            output.AppendLine(s_numbers, $"CPU/op is the process's CPU time (user and system, every thread, the runtime's and the runner's own work included: the same runner for every row) over the measured window, divided by the operations completed in it; syscalls/op counts the system calls of the run's threads with the kernel's own counter (perf_event_open on the raw_syscalls:sys_enter tracepoint: an increment per call, not a tracer){(WorkloadTables.SystemCallsUnmeasured([.. Ycsb ?? [], .. ThreadSweep ?? [], .. ScaleRuns]) is { } unmeasured ? $"; here system calls were {unmeasured}" : string.Empty)}. This machine has {Machine.LogicalCores} logical cores.").AppendLine();
        }

        if (Ycsb is { Count: > 0 })
        {
            output.AppendLine("### YCSB core workloads").AppendLine();
            output.AppendLine("A: 50% reads, 50% updates; B: 95/5; C: reads only; F: 50% reads, 50% read-modify-writes (zipfian 0.99, scrambled); D: 95% reads, 5% inserts, the newest records hottest; E: 95% scans of 1 to 100 records from a chosen key, 5% inserts.").AppendLine();
            WorkloadTables.Ycsb(Ycsb).WriteTo(output);
            WriteCharts(output, [.. AdrCharts.YcsbP99(Ycsb), .. AdrCharts.YcsbPercentiles(Ycsb)], images, "p99 latency of each workload's operations per row (Mermaid, one chart per workload and operation); the PNGs draw p50 to p99.9 on a log scale, one line per row.");
        }

        if (ThreadSweep is { Count: > 0 })
        {
            output.AppendLine("### Threads").AppendLine();
            output.AppendLine("Operations per second of all threads, uniform keys; reads are Gets, writes overwrite existing keys with new versions.").AppendLine();
            WorkloadTables.Threads(ThreadSweep).WriteTo(output);
            WriteCharts(output, AdrCharts.Threads(ThreadSweep), images, "Operations per second against threads (Mermaid: one chart per row and mix, on its own linear scale; PNG: one line per row, log scale, so the in-memory rows do not flatten the rest).");
            WorkloadTables.WriteThreadCosts(output, ThreadSweep);
        }

        if (Scale is { Count: > 0 })
        {
            output.AppendLine("### Scale").AppendLine();
            output.AppendLine(s_numbers, $"Each row loaded to {string.Join(", ", Scale.Select(point => point.Records).Distinct().Select(records => records.ToString("N0", s_numbers)))} records in turn (batches of 1,000, then Flush) in one directory; at each size, one thread of Gets, one of Puts and one of scans of 1 to 100 records, uniform keys. Bytes on disk: the lengths of every file in the row's directory after the load and Flush added up, not the blocks the file system gave them (FileSystem's one small file per record takes a whole block each).").AppendLine();
            WorkloadTables.Scale(Scale).WriteTo(output);
            WriteCharts(output, AdrCharts.Scale(Scale), images, "What each row costs as it grows, log-log: a flat line does not slow down with size.");
        }
    }

    private IEnumerable<WorkloadResult> ScaleRuns => (Scale ?? []).SelectMany(point => (WorkloadResult[])[point.Get, point.Put, point.Scan]);

    /// <summary>
    /// A table's charts: links to the PNGs drawn (or the one line saying why none were), then the Mermaid blocks, folded
    /// away when there are many so the tables stay readable.
    /// </summary>
    private static void WriteCharts(StringBuilder output, IReadOnlyList<Chart> charts, ChartImages? images, string description)
    {
        output.AppendLine(description).AppendLine();
        if (images is not null && charts.Any(chart => chart.Outputs.HasFlag(ChartOutputs.Image)))
        {
            string[] links = [.. charts.Where(chart => images.Link(chart.Id) is not null).Select(chart => $"[{chart.Title}]({images.Link(chart.Id)})")];
            output.AppendLine(links.Length > 0
                ? $"PNG charts, with a legend, the tier and the machine in each title, their data files beside them: {string.Join(" · ", links)}"
                : $"PNG charts: {images.Problem ?? "none drawn"}").AppendLine();
        }

        string[] blocks = [.. charts.Where(chart => chart.Outputs.HasFlag(ChartOutputs.Markdown)).SelectMany(MermaidChart.Blocks)];
        if (blocks.Length == 0)
        {
            return;
        }

        const int Unfolded = 6;
        if (blocks.Length > Unfolded)
        {
            output.AppendLine(s_numbers, $"<details><summary>{blocks.Length} Mermaid charts: one series each (Mermaid draws no legend), linear from 0</summary>").AppendLine();
        }

        foreach (string block in blocks)
        {
            output.Append(block).AppendLine();
        }

        if (blocks.Length > Unfolded)
        {
            output.AppendLine("</details>").AppendLine();
        }
    }

    private void WriteContention(StringBuilder output)
    {
        if (Contention is not { Count: > 0 } results)
        {
            return;
        }

        ImportContentionSettings settings = results[0].Settings;
        output.AppendLine("## The UI while the CLI imports").AppendLine();
        output.AppendLine(s_numbers, $"Two real processes on one store, at {results[0].Durability} durability. The ui: {settings.UiThreads} threads, {settings.UiOperationsPerSecond:N0} operations per second in all on a fixed schedule (open loop: a latency counts from the operation's intended start, so a stall shows), uniform over {settings.UiRecords:N0} records of {WorkloadSpec.DefaultValueBytes} bytes, {1 - settings.UiWriteShare:0.#%} reads and {settings.UiWriteShare:0.#%} updates (each a new version of a record only that thread writes); {settings.Warmup.TotalSeconds:0.##} s of warm-up, then {settings.Duration.TotalSeconds:0.##} s measured alone, then the same while the cli imports new records in PutMany batches of {settings.BatchSize:N0} at full speed for {settings.ImportDuration.TotalSeconds:0.##} s. Visibility lag: the ui looks for the last record of the cli's next batch every {settings.PollInterval.TotalMilliseconds:0.#} ms; a batch's lag is the ui's clock when a read first found it minus the cli's clock when its PutMany returned. Both are `Stopwatch.GetTimestamp`, which .NET reads from `CLOCK_MONOTONIC` on Linux: one clock for every process on the machine, checked on each run by the parent (each worker's first timestamp must fall between the parent's before and after). A batch seen before the cli's PutMany returned counts as 0. Errors: every exception either process got from the store and every wrong read. Lost: after both processes ended, every record of every acknowledged batch and every ui record (at the version its last acknowledged update wrote) read back byte for byte. Longer runs: `kvbench contend` (5 s per phase).").AppendLine();
        WorkloadTables.Contention(results).WriteTo(output);
        foreach (string finding in WorkloadTables.ContentionFindings(results))
        {
            output.AppendLine(finding).AppendLine();
        }

        output.AppendLine("Where one process at a time may write (OneWriter), the cli is the writer, since the import is the point, and the ui reads as a secondary that catches up with the writer before each look for a batch; its workload is then reads only. Where one process at a time may open the store (Exclusive), the cli's open beside the ui is refused, and the cell names the typed error it got.").AppendLine();
        output.AppendLine("### The ui's latencies, alone and during the import").AppendLine();
        WorkloadTables.ContentionLatencies(results).WriteTo(output);
    }

    private static void WriteBenchmark(StringBuilder output, BenchmarkReport? report, string benchmark, string description)
    {
        output.AppendLine(s_numbers, $"### {benchmark}").AppendLine();
        if (report is null)
        {
            output.AppendLine(s_numbers, $"No {benchmark} results were found. Run `dotnet run -c Release --project benchmarks/KvBench.Benchmarks` and generate this file again.").AppendLine();
            return;
        }

        output.AppendLine(description).AppendLine();
        report.Select(OperationColumns).WriteTo(output);
        output.AppendLine(s_numbers, $"From `{Path.GetFileName(report.Path)}`, written {report.WrittenUtc:yyyy-MM-dd HH:mm} UTC.").AppendLine();
    }
}
