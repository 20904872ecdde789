using BenchmarkDotNet.Reports;

using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores;

namespace KvBench.Benchmarks;

/// <summary>
/// The one orchestrator of a run of the benchmarks' program: BenchmarkDotNet's cases over shared preloaded datasets,
/// the write check, for an evaluation the paired adapter ÷ raw measurement, the ratio files, for an evaluation the ADR
/// file (<see cref="AdrGenerator.WriteAsync"/>) and the decision record for the plan's profile, then where every table
/// is. The exit code is 0 only when every case
/// ran, every key held the value a benchmark wrote to it last, every paired worker finished and no ADR section found a
/// problem (a contradicted capability, a failed workload, a lost record, ...).
/// </summary>
internal static class EvaluationRun
{
    /// <summary>The ADR-ready markdown an evaluation run ends with, in BenchmarkDotNet's artifacts folder.</summary>
    public const string AdrFileName = "kvbench-adr.md";

    /// <summary>Runs <paramref name="plan"/>; the program's exit code.</summary>
    public static int Run(EvaluationPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
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
            summaries = [.. plan.Benchmarks()];
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

        PairedRatios? paired = null;
        IReadOnlyList<string> pairedProblems = [];
        if (plan.Adr is not null)
        {
            pairedProblems = PairedMeasurement.Measure(StoreCatalog.AvailableNames, out PairedRatios measured);
            paired = measured;
        }

        foreach (Summary summary in summaries)
        {
            RatioFiles.Write(summary, paired);
        }

        bool claimsHold = plan.Adr is not { } preset || WriteAdr(summaries, preset, plan);
        PrintTables(summaries, started);
        return summaries.All(Succeeded) && claimsHold && lostWrites.Count == 0 && pairedProblems.Count == 0 ? 0 : 1;
    }

    /// <summary>Measures every ADR section and writes <see cref="AdrFileName"/> beside the results; whether nothing failed.</summary>
    private static bool WriteAdr(Summary[] summaries, AdrPreset preset, EvaluationPlan plan)
    {
        string resultsDirectory = summaries.Select(summary => summary.ResultsDirectoryPath).FirstOrDefault() ?? AdrGenerator.DefaultResultsDirectory;
        Console.WriteLine("// Probing every row's capabilities for the ADR tables...");
        var request = new AdrRequest
        {
            OutputFile = Path.Combine(Path.GetDirectoryName(resultsDirectory)!, AdrFileName),
            Command = plan.Command,
            Preset = preset,
            ResultsDirectory = resultsDirectory,
            Servers = plan.Servers,
            Profile = plan.Profile?.Profile ?? DecisionProfiles.Default(),
            DecisionSettings = preset == AdrPreset.Full ? new DecisionSettings() : DecisionSettings.Evaluation,
            ProfilePath = plan.Profile?.Path,
        };
        return AdrGenerator.WriteAsync(request, KvBenchCli.Locate(), Console.Out, Console.Out, line =>
            Console.WriteLine($"//   {line}")).GetAwaiter().GetResult().Count == 0;
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
