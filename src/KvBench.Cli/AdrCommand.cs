using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Sqlite;
using KvBench.Evaluation.Workload;

namespace KvBench.Cli;

/// <summary><c>adr</c>: probes every store and writes the markdown tables a decision record needs.</summary>
internal static class AdrCommand
{
    public static Command Create()
    {
        var output = new Option<FileInfo>("--output", "-o")
        {
            Description = "The markdown file to write.",
            DefaultValueFactory = static _ => new FileInfo("kvbench-adr.md"),
        };
        var quick = new Option<bool>("--quick") { Description = "Smaller stores and shorter loops and workload runs: every row within a few minutes." };
        var full = new Option<bool>("--full") { Description = "Search values up to 1 GiB (default 64 MiB), grow stores past 4 GiB, run longer throughput loops and 5 s workload runs." };
        var results = new Option<DirectoryInfo>("--results")
        {
            Description = "Where BenchmarkDotNet's reports are; the newest PointOperations and SyncedPuts tables are included.",
            DefaultValueFactory = static _ => new DirectoryInfo(AdrGenerator.DefaultResultsDirectory),
        };
        var workDirectory = new Option<DirectoryInfo>("--work-dir")
        {
            Description = "Scratch directory for the probes' stores; its file system is the one measured and reported. Default: a new folder under the system temp folder.",
        };
        var command = new Command("adr", "Measures every capability of every store (largest key and value, growth, two processes, prefix scans, reads and writes per second, durability) and writes one ADR-ready markdown file with the latest benchmark tables and charts (Mermaid inline; PNGs drawn by gnuplot into a folder beside the file, named after it with -charts).")
        {
            output, quick, full, results, workDirectory,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(quick) && result.GetValue(full))
            {
                result.AddError("--quick and --full cannot be combined.");
            }
        });
        command.SetAction(async (parseResult, _) =>
        {
            TextWriter console = parseResult.InvocationConfiguration.Output;
            bool isQuick = parseResult.GetValue(quick);
            bool isFull = parseResult.GetValue(full);
            ProbeSettings settings = isQuick ? ProbeSettings.Quick : isFull ? ProbeSettings.Full : ProbeSettings.Default;
            FileInfo file = parseResult.GetValue(output)!;
            string scratch = parseResult.GetValue(workDirectory)?.FullName ?? Path.Combine(Path.GetTempPath(), "kvbench-adr-" + Guid.NewGuid().ToString("N"));
            string regenerate = $"kvbench adr --output {file.Name}{(isQuick ? " --quick" : string.Empty)}{(isFull ? " --full" : string.Empty)}";
            try
            {
                AdrReport report = await AdrGenerator.GenerateAsync(
                    settings,
                    parseResult.GetValue(results)!.FullName,
                    scratch,
                    regenerate,
                    KvBenchCli.Locate(),
                    console.WriteLine,
                    isQuick ? SuiteSettings.Smoke : isFull ? new SuiteSettings() : SuiteSettings.Evaluation,
                    isQuick ? ImportContentionSettings.Smoke : isFull ? new ImportContentionSettings() : ImportContentionSettings.Evaluation,
                    isQuick ? SqliteSuiteSettings.Smoke : isFull ? new SqliteSuiteSettings() : SqliteSuiteSettings.Evaluation).ConfigureAwait(false);
                file.Directory?.Create();
                ChartImages charts = await report.WriteAsync(file.FullName).ConfigureAwait(false);
                console.WriteLine($"Wrote {file.FullName}");
                console.WriteLine(charts.Problem ?? $"Charts: {charts.Images.Count} PNGs with their data files in {ChartFiles.FolderFor(file.FullName)}");
                IReadOnlyList<string> problems = report.Problems();
                foreach (string problem in problems)
                {
                    await parseResult.InvocationConfiguration.Error.WriteLineAsync(problem).ConfigureAwait(false);
                }

                return problems.Count > 0 ? ExitCodes.Error : ExitCodes.Ok;
            }
            finally
            {
                if (parseResult.GetValue(workDirectory) is null && Directory.Exists(scratch))
                {
                    Directory.Delete(scratch, recursive: true);
                }
            }
        });
        return command;
    }
}
