using System.CommandLine;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Workload;

namespace KvBench.Cli;

/// <summary>
/// <c>render</c>: an ADR file and its charts drawn again from the results file a run left (<see cref="RunResults"/>),
/// measuring nothing: to redraw tables after a change to how they print, or from a run on another machine. A file of
/// workload runs (<c>--json</c> of <c>run</c>, <c>ycsb</c> or <c>sweep</c>) is drawn as its table and each run over
/// time (<see cref="RunsOverTime"/>).
/// </summary>
internal static class RenderCommand
{
    public static Command Create()
    {
        var results = new Argument<FileInfo>("results")
        {
            Description = "The results file an adr or evaluation run wrote (*.results.json), or --json of run, ycsb or sweep.",
        };
        var output = new Option<FileInfo?>("--output", "-o")
        {
            Description = "The markdown file to write; its charts go beside it (default: the results file's name with .md).",
            HelpName = "file",
        };
        var command = new Command("render", "Draws an ADR file and its charts again from a run's results file, or workload runs over time.")
        {
            results, output,
        };
        command.SetAction(async (parseResult, _) =>
        {
            FileInfo input = parseResult.GetRequiredValue(results);
            string file = parseResult.GetValue(output)?.FullName ?? MarkdownFor(input.FullName);
            ChartImages charts;
            try
            {
                if (RunResults.IsResultsFile(input.FullName))
                {
                    AdrReport report = RunResults.ReadReport(input.FullName);
                    Directory.CreateDirectory(Path.GetDirectoryName(file)!);
                    charts = await report.WriteAsync(file, results: false).ConfigureAwait(false);
                }
                else
                {
                    IReadOnlyList<WorkloadResult> runs = RunsOverTime.Read(input.FullName);
                    Directory.CreateDirectory(Path.GetDirectoryName(file)!);
                    charts = await RunsOverTime.WriteAsync(runs, file, input.FullName).ConfigureAwait(false);
                }
            }
            catch (ResultsFileException e)
            {
                await parseResult.InvocationConfiguration.Error.WriteLineAsync($"kvbench: {e.Message}").ConfigureAwait(false);
                return ExitCodes.Usage;
            }

            TextWriter console = parseResult.InvocationConfiguration.Output;
            await console.WriteLineAsync($"Wrote {file}").ConfigureAwait(false);
            await console.WriteLineAsync(
                charts.Problem ?? $"Charts: {charts.Images.Count} PNGs with their data files in {ChartFiles.FolderFor(file)}").ConfigureAwait(false);
            return ExitCodes.Ok;
        });
        return command;
    }

    /// <summary>"run.results.json" gives "run.md"; any other name gets ".md" for its extension.</summary>
    private static string MarkdownFor(string resultsFile)
    {
        const string Suffix = ".results.json";
        return resultsFile.EndsWith(Suffix, StringComparison.OrdinalIgnoreCase)
            ? resultsFile[..^Suffix.Length] + ".md"
            : Path.ChangeExtension(resultsFile, ".md");
    }
}
