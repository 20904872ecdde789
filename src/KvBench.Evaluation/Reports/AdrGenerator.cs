using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Sqlite;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Reports;

/// <summary>Probes every row and gathers the latest benchmark tables into an <see cref="AdrReport"/>: what `kvbench adr` and the benchmark run both call.</summary>
public static class AdrGenerator
{
    /// <summary>The folder BenchmarkDotNet writes its reports to, relative to the directory a run starts in.</summary>
    public const string DefaultResultsDirectory = "BenchmarkDotNet.Artifacts/results";

    /// <summary>
    /// Bounds for the two-process check in a report run: a memory-only store never shows its peer's writes, and the
    /// check gives up on that after <see cref="MultiProcessTimeouts.SeePeer"/>, so it is kept well below the test default.
    /// </summary>
    public static MultiProcessTimeouts MultiProcessTimeouts { get; } = new() { SeePeer = TimeSpan.FromSeconds(10) };

    /// <summary>Measures every available row and builds the report.</summary>
    /// <param name="settings">How hard the probes push.</param>
    /// <param name="resultsDirectory">Where BenchmarkDotNet's reports are.</param>
    /// <param name="workDirectory">A scratch directory for the probes' stores; its file system is the one reported.</param>
    /// <param name="command">The command that regenerates the file, printed in it.</param>
    /// <param name="cli">The CLI to start as other processes (two-process and kill checks), or <see langword="null"/> to leave those unmeasured.</param>
    /// <param name="log">Receives one line per row as it is probed.</param>
    /// <param name="workloads">How long the YCSB and thread-sweep suites run, or <see langword="null"/> to leave them out.</param>
    /// <param name="sqlite">How long the SQLite strategy suites run, or <see langword="null"/> to leave them out.</param>
    public static async Task<AdrReport> GenerateAsync(
        ProbeSettings settings,
        string resultsDirectory,
        string workDirectory,
        string command,
        KvBenchCli? cli,
        Action<string>? log = null,
        SuiteSettings? workloads = null,
        SqliteSuiteSettings? sqlite = null)
    {
        Directory.CreateDirectory(workDirectory);
        var measurements = new List<StoreMeasurement>();
        foreach (string name in StoreCatalog.AvailableNames)
        {
            log?.Invoke($"Probing {name}...");
            string rowDirectory = Path.Combine(workDirectory, name);
            try
            {
                measurements.Add(await StoreProbe.MeasureAsync(name, settings, rowDirectory, cli, MultiProcessTimeouts).ConfigureAwait(false));
            }
            finally
            {
                TryDelete(rowDirectory);
            }
        }

        (IReadOnlyList<WorkloadResult> Ycsb, IReadOnlyList<WorkloadResult> Threads)? suites = null;
        if (workloads is not null)
        {
            log?.Invoke("Running YCSB A to F and the thread sweep on every row...");
            suites = WorkloadSuites.Evaluation(StoreCatalog.AvailableNames, workloads, Path.Combine(workDirectory, "workloads"), log);
        }

        SqliteResults? sqliteResults = null;
        if (sqlite is not null)
        {
            log?.Invoke("Running the SQLite strategies, the busy trap, the upsert forms and the pragmas...");
            sqliteResults = SqliteSuites.All(sqlite, Path.Combine(workDirectory, "sqlite"), log);
        }

        return new AdrReport
        {
            Sqlite = sqliteResults,
            Ycsb = suites?.Ycsb,
            ThreadSweep = suites?.Threads,
            Measurements = measurements,
            Unavailable = [.. StoreCatalog.Names.Where(name => StoreCatalog.UnavailableReason(name) is not null).Select(name => KeyValuePair.Create(name, StoreCatalog.UnavailableReason(name)!))],
            Engines = StoreCatalog.AvailableNames.ToDictionary(name => name, StoreCatalog.Engine),
            Machine = MachineInfo.Collect(workDirectory),
            Settings = settings,
            PointOperations = BenchmarkReport.FindLatest(resultsDirectory, "PointOperations"),
            SyncedPuts = BenchmarkReport.FindLatest(resultsDirectory, "SyncedPuts"),
            Ratios = NewestFile(resultsDirectory, "*PointOperations-ratios.md") is { } ratios ? File.ReadAllText(ratios) : null,
            Command = command,
            GeneratedAt = DateTimeOffset.UtcNow,
        };
    }

    private static string? NewestFile(string directory, string pattern) =>
        Directory.Exists(directory)
            ? new DirectoryInfo(directory).EnumerateFiles(pattern).MaxBy(file => file.LastWriteTimeUtc)?.FullName
            : null;

    private static void TryDelete(string directory)
    {
        try
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
        catch (IOException)
        {
            // A probe's child process may still be releasing a file; the scratch directory is the caller's to remove.
        }
    }
}
