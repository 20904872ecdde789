using System.Diagnostics;

using KvBench.Core;
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
    /// <param name="workloads">How long the YCSB, thread-sweep and scale suites run, or <see langword="null"/> to leave them out.</param>
    /// <param name="contention">How the ui-while-the-cli-imports scenario runs, or <see langword="null"/> to leave it out; it needs <paramref name="cli"/>.</param>
    /// <param name="sqlite">How long the SQLite strategy suites run, or <see langword="null"/> to leave them out.</param>
    public static async Task<AdrReport> GenerateAsync(
        ProbeSettings settings,
        string resultsDirectory,
        string workDirectory,
        string command,
        KvBenchCli? cli,
        Action<string>? log = null,
        SuiteSettings? workloads = null,
        ImportContentionSettings? contention = null,
        SqliteSuiteSettings? sqlite = null)
    {
        Directory.CreateDirectory(workDirectory);

        // Each step says how long it took, so a run over its budget shows where the time went.
        long stepStarted = Stopwatch.GetTimestamp();
        void Took(string step)
        {
            log?.Invoke($"{step}: {Stopwatch.GetElapsedTime(stepStarted).TotalSeconds.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)} s");
            stepStarted = Stopwatch.GetTimestamp();
        }

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

            Took($"Probing {name}");
        }

        IReadOnlyList<CrashRoundsResult>? crashes = null;
        if (cli is not null)
        {
            int rounds = CrashRounds.RoundsFromEnvironment(settings.CrashRounds);
            log?.Invoke($"Crash rounds: {rounds} per row and tier...");
            crashes = await RunCrashRoundsAsync(cli, rounds, Path.Combine(workDirectory, "crash"), Took).ConfigureAwait(false);
        }

        (IReadOnlyList<WorkloadResult> Ycsb, IReadOnlyList<WorkloadResult> Threads)? suites = null;
        IReadOnlyList<ScalePoint>? scale = null;
        if (workloads is not null)
        {
            log?.Invoke("Running YCSB A to F and the thread sweep on every row...");
            suites = WorkloadSuites.Evaluation(StoreCatalog.AvailableNames, workloads, Path.Combine(workDirectory, "workloads"), log);
            Took("YCSB and the thread sweep");
            log?.Invoke($"Running the scale sweep ({string.Join(", ", workloads.ScaleRecords.Select(records => records.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)))} records) on every row...");
            scale = WorkloadSuites.Scale(StoreCatalog.AvailableNames, workloads, Path.Combine(workDirectory, "scale"), log);
            Took("The scale sweep");
        }

        IReadOnlyList<ImportContentionResult>? contended = null;
        if (contention is not null && cli is not null)
        {
            log?.Invoke("The ui alone and while the cli imports, on every row that keeps its data in files...");
            contended = await new ImportContention(cli, MultiProcessTimeouts)
                .RunAsync(StoreCatalog.AvailableNames, contention, Path.Combine(workDirectory, "contention"), log: log).ConfigureAwait(false);
            Took("The ui while the cli imports");
        }

        SqliteResults? sqliteResults = null;
        if (sqlite is not null)
        {
            log?.Invoke("Running the SQLite strategies, the busy trap, the upsert forms and the pragmas...");
            sqliteResults = SqliteSuites.All(sqlite, Path.Combine(workDirectory, "sqlite"), log);
            Took("The SQLite section");
        }

        return new AdrReport
        {
            CrashRounds = crashes,
            Contention = contended,
            Sqlite = sqliteResults,
            Ycsb = suites?.Ycsb,
            ThreadSweep = suites?.Threads,
            Scale = scale,
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

    /// <summary>Crash rounds on every row that keeps files, at every tier it offers, each in a directory of its own.</summary>
    private static async Task<IReadOnlyList<CrashRoundsResult>> RunCrashRoundsAsync(KvBenchCli cli, int rounds, string workDirectory, Action<string> took)
    {
        var results = new List<CrashRoundsResult>();
        foreach (string name in StoreCatalog.AvailableNames)
        {
            DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
            foreach (Durability durability in Enum.GetValues<Durability>().Where(tier => offered != DurabilityTiers.None && offered.Offers(tier)))
            {
                string directory = Path.Combine(workDirectory, $"{name}-{durability}");
                try
                {
                    results.Add(await CrashRounds.RunAsync(cli, name, durability, directory, rounds, seed: rounds).ConfigureAwait(false));
                }
                finally
                {
                    TryDelete(directory);
                }
            }

            took($"Crash rounds on {name}");
        }

        return results;
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
