using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores;

namespace KvBench.Benchmarks;

/// <summary>
/// With no arguments: the evaluation suite (point operations and synced puts) with a short job, then the capability
/// probes and the ADR file (<see cref="AdrFileName"/>), then where the tables are. With <c>--full</c>: the same at
/// BenchmarkDotNet's default precision and the probes' full settings. Anything else goes to BenchmarkDotNet
/// (<c>--filter</c>, <c>--job</c>, <c>--list</c>, ...). The exit code is 0 only when every case ran, no ADR section found
/// a problem (a contradicted capability, a failed workload, a lost record, ...) and every key held the value a benchmark
/// wrote to it last.
/// </summary>
public static class Program
{
    /// <summary>The switch for a full-precision evaluation run.</summary>
    public const string FullSwitch = "--full";

    /// <summary>The file, beside BenchmarkDotNet's tables, that holds the ratio tables and goal checks.</summary>
    public const string RatioFileName = "KvBench.Benchmarks.PointOperations-ratios.md";

    /// <summary>The file, beside BenchmarkDotNet's tables, that holds the ratios of <see cref="ThreadedPointOperations"/>.</summary>
    public const string ThreadedRatioFileName = "KvBench.Benchmarks.ThreadedPointOperations-ratios.md";

    /// <summary>The ADR-ready markdown an evaluation run ends with, in BenchmarkDotNet's artifacts folder.</summary>
    public const string AdrFileName = "kvbench-adr.md";

    /// <summary>Only the paired adapter ÷ raw measurement and its goals (with <see cref="RowsSwitch"/>, of those rows): <c>--paired</c>.</summary>
    public const string PairedSwitch = "--paired";

    /// <summary>KvBench's one argument beside BenchmarkDotNet's: <c>--rows FASTER,Memory</c> keeps the cases of those rows and their variants.</summary>
    public const string RowsSwitch = "--rows";

    private const string EvaluationCommand = "dotnet run -c Release --project benchmarks/KvBench.Benchmarks";

    public static int Main(string[] args)
    {
        if (args is [PairedPriceWorker.Switch, string row, string output])
        {
            return PairedPriceWorker.RunProcess(row, output);
        }

        if (args is [PairedSwitch, .. string[] pairedArgs])
        {
            return MeasurePairedOnly(pairedArgs);
        }

        DateTime started = DateTime.UtcNow;
        string datasets = Dataset.CreateSharedRoot();
        Environment.SetEnvironmentVariable(Dataset.SharedRootVariable, datasets);
        foreach (string name in StoreCatalog.Names.Where(name => StoreCatalog.UnavailableReason(name) is not null))
        {
            Console.WriteLine($"// {name} is not measured: {StoreCatalog.UnavailableReason(name)}");
        }

        Summary[] summaries;
        IReadOnlyList<string> lostWrites;
        try
        {
            summaries = args switch
            {
                [] => RunEvaluation(KvBenchConfig.EvaluationJob),
                [FullSwitch] => RunEvaluation(Job.Default),
                _ => [.. BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(WithoutRows(args, out IReadOnlyList<string>? rows), KvBenchConfig.ForCommandLine(rows))],
            };
        }
        finally
        {
            lostWrites = Dataset.Failures(datasets);
            Directory.Delete(datasets, recursive: true);
        }

        foreach (string lost in lostWrites)
        {
            Console.WriteLine($"Write check failed: {lost}");
        }

        bool isEvaluation = args is [] or [FullSwitch];
        PairedRatios? paired = null;
        IReadOnlyList<string> pairedProblems = [];
        if (isEvaluation)
        {
            pairedProblems = MeasurePaired(StoreCatalog.AvailableNames, out PairedRatios measured);
            paired = measured;
        }

        foreach (Summary summary in summaries)
        {
            WriteRatios(summary, paired);
        }

        bool claimsHold = !isEvaluation || WriteAdr(summaries, full: args is [FullSwitch]);
        PrintTables(summaries, started);
        return summaries.All(Succeeded) && claimsHold && lostWrites.Count == 0 && pairedProblems.Count == 0 ? 0 : 1;
    }

    /// <summary>The paired adapter ÷ raw measurement of <paramref name="rows"/> (<see cref="PairedPrice"/>); the lines saying which rows failed.</summary>
    private static IReadOnlyList<string> MeasurePaired(IReadOnlyList<string> rows, out PairedRatios paired)
    {
        Console.WriteLine("// Adapter ÷ raw driver, measured paired...");
        (IReadOnlyList<RowRatio> ratios, IReadOnlyList<string> problems) = PairedPrice.Measure(rows, PairedPriceSettings.Default, line => Console.WriteLine($"//   {line}"));
        paired = new PairedRatios(ratios, PairedPriceSettings.Default);
        foreach (string problem in problems)
        {
            Console.WriteLine(problem);
        }

        return problems;
    }

    /// <summary><see cref="PairedSwitch"/>: the paired measurement alone, its table and goals printed; 1 when a row failed.</summary>
    private static int MeasurePairedOnly(string[] args)
    {
        if (WithoutRows(args, out IReadOnlyList<string>? rows) is { Length: > 0 } other)
        {
            Console.WriteLine($"{PairedSwitch} takes only {RowsSwitch}, not {string.Join(' ', other)}.");
            return 2;
        }

        IReadOnlyList<string> problems = MeasurePaired(rows ?? StoreCatalog.AvailableNames, out PairedRatios paired);
        Console.WriteLine(PointOperationReport.ToMarkdown([], paired));
        return problems.Count == 0 ? 0 : 1;
    }

    /// <summary>
    /// <paramref name="args"/> without <see cref="RowsSwitch"/> and its value (BenchmarkDotNet's <c>--filter</c> sees only
    /// class and method names, never a parameter), and the rows it named, or <see langword="null"/> when it is absent.
    /// </summary>
    internal static string[] WithoutRows(string[] args, out IReadOnlyList<string>? rows)
    {
        int at = Array.IndexOf(args, RowsSwitch);
        if (at < 0)
        {
            rows = null;
            return args;
        }

        if (at + 1 == args.Length)
        {
            throw new ArgumentException($"{RowsSwitch} needs a comma-separated list of rows, e.g. {RowsSwitch} {StoreNames.Faster},{StoreNames.Memory}.", nameof(args));
        }

        rows = args[at + 1].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        foreach (string row in rows.Where(row => !StoreCatalog.Names.Contains(row)))
        {
            throw new ArgumentException($"{RowsSwitch}: no row is named '{row}'; the rows are {string.Join(", ", StoreCatalog.Names)}.", nameof(args));
        }

        return [.. args[..at], .. args[(at + 2)..]];
    }

    /// <summary>
    /// Point operations with <paramref name="pointJob"/>, then synced puts with their own default job
    /// (<see cref="SlowOperationsAttribute"/>), in one BenchmarkDotNet run: one build of the benchmark process for both,
    /// where two runs built it twice (about 40 s of the default run's 15 minutes).
    /// </summary>
    private static Summary[] RunEvaluation(Job pointJob) =>
        BenchmarkRunner.Run(
        [
            BenchmarkConverter.TypeToBenchmarks(typeof(PointOperations), KvBenchConfig.Create(pointJob)),
            BenchmarkConverter.TypeToBenchmarks(typeof(SyncedPuts), KvBenchConfig.Create(job: null)),
        ]);

    /// <summary>Measures every ADR section and writes <see cref="AdrFileName"/> beside the results; whether nothing failed.</summary>
    private static bool WriteAdr(Summary[] summaries, bool full)
    {
        string resultsDirectory = summaries.Select(summary => summary.ResultsDirectoryPath).FirstOrDefault() ?? AdrGenerator.DefaultResultsDirectory;
        Console.WriteLine("// Probing every row's capabilities for the ADR tables...");
        var request = new AdrRequest
        {
            OutputFile = Path.Combine(Path.GetDirectoryName(resultsDirectory)!, AdrFileName),
            Command = full ? $"{EvaluationCommand} -- {FullSwitch}" : EvaluationCommand,
            Preset = full ? AdrPreset.Full : AdrPreset.Default,
            ResultsDirectory = resultsDirectory,
        };
        return AdrGenerator.WriteAsync(request, KvBenchCli.Locate(), Console.Out, Console.Out, line => Console.WriteLine($"//   {line}")).GetAwaiter().GetResult().Count == 0;
    }

    private static void WriteRatios(Summary summary, PairedRatios? paired)
    {
        WriteRatios(summary, typeof(PointOperations), RatioFileName, results => PointOperationReport.ToMarkdown(results, paired));
        WriteRatios(summary, typeof(ThreadedPointOperations), ThreadedRatioFileName, PointOperationReport.ThreadedToMarkdown);
    }

    private static void WriteRatios(Summary summary, Type benchmark, string fileName, Func<IEnumerable<PointResult>, string> toMarkdown)
    {
        List<BenchmarkDotNet.Running.BenchmarkCase> cases = [.. summary.BenchmarksCases.Where(benchmarkCase => benchmarkCase.Descriptor.Type == benchmark)];
        if (cases.Count == 0)
        {
            return;
        }

        IReadOnlyList<PointResult> results = [.. summary.Reports
            .Where(report => cases.Contains(report.BenchmarkCase))
            .Select(report => SummaryResults.From(report.BenchmarkCase, report))
            .OfType<PointResult>()
            .Where(result => PointMethods.All.Contains(result.Method))];

        string markdown = toMarkdown(results);
        File.WriteAllText(Path.Combine(summary.ResultsDirectoryPath, fileName), markdown);
        Console.WriteLine();
        Console.WriteLine(markdown);
    }

    private static void PrintTables(Summary[] summaries, DateTime started)
    {
        foreach (string directory in summaries.Select(summary => summary.ResultsDirectoryPath).Distinct())
        {
            Console.WriteLine($"Tables (GitHub markdown, CSV, JSON) in {directory}:");
            foreach (FileInfo file in new DirectoryInfo(directory).EnumerateFiles().Where(file => file.LastWriteTimeUtc >= started).OrderBy(file => file.Name))
            {
                Console.WriteLine($"  {file.Name}");
            }
        }
    }

    private static bool Succeeded(Summary summary) =>
        !summary.HasCriticalValidationErrors
        && summary.Reports.Length == summary.BenchmarksCases.Length
        && summary.Reports.All(report => report.Success);
}
