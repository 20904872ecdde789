using System.CommandLine;

using KvBench.Evaluation.Comparison;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;

namespace KvBench.Cli;

/// <summary>
/// <c>render</c>: the markdown a run wrote or printed, and its charts, drawn again from the results file it left
/// (<see cref="ResultsFile"/>), measuring nothing: to redraw tables after a change to how they print, or from a run on
/// another machine. An adr run's file gives its ADR file, a decision's its record, and a workload or contention
/// command's the tables it printed with each workload run over time (<see cref="RunsOverTime"/>).
/// </summary>
internal static class RenderCommand
{
    public static Command Create()
    {
        var results = new Argument<FileInfo>("results")
        {
            Description = "The results file of adr, decide or the evaluation, or the --json of run, ycsb, sweep, contend or sqlite.",
        };
        var output = new Option<FileInfo?>("--output", "-o")
        {
            Description = "The markdown file to write; its charts go beside it (default: the results file's name with .md).",
            HelpName = "file",
        };
        var command = new Command("render", "Draws a run's markdown and charts again from its results file, measuring nothing.")
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
                Directory.CreateDirectory(Path.GetDirectoryName(file)!);
                charts = ResultsFile.IsResultsFile(input.FullName)
                    ? await ResultsFile.Read(input.FullName).RenderAsync(file, input.FullName).ConfigureAwait(false)
                    : await RunsOverTime.RenderAsync(input.FullName, file).ConfigureAwait(false);
            }
            catch (ResultsFileException e)
            {
                await parseResult.InvocationConfiguration.Error.WriteLineAsync($"kvbench: {e.Message}").ConfigureAwait(false);
                return ExitCodes.Usage;
            }

            TextWriter console = parseResult.InvocationConfiguration.Output;
            await console.WriteLineAsync($"Wrote {file}").ConfigureAwait(false);
            if (charts.Problem is not null || charts.Images.Count > 0)
            {
                await console.WriteLineAsync(
                    charts.Problem ?? $"Charts: {charts.Images.Count} PNGs with their data files in {ChartFiles.FolderFor(file)}").ConfigureAwait(false);
            }

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
