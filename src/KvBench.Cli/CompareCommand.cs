using System.CommandLine;

using KvBench.Evaluation.Comparison;

namespace KvBench.Cli;

/// <summary><c>compare</c>: two results files side by side, cell by cell, with a verdict on each (<see cref="RunComparison"/>).</summary>
internal static class CompareCommand
{
    /// <summary>The default threshold: a change smaller than this is the same, whatever its intervals.</summary>
    private const double DefaultThreshold = 0.05;

    public static Command Create()
    {
        var baseFile = new Argument<FileInfo>("base")
        {
            Description = "The results file to compare against: of adr, decide, the evaluation, or any command's --json.",
        };
        var newFile = new Argument<FileInfo>("new") { Description = "The results file to judge." };
        Option<double> threshold = new Option<double>("--threshold")
        {
            Description = "The share a median must move by to count as a change (0.05 is 5%).",
            DefaultValueFactory = _ => DefaultThreshold,
            HelpName = "share",
        }.Between(0.001, 10);
        var output = new Option<FileInfo?>("--output", "-o") { Description = "Also write the comparison to this markdown file.", HelpName = "file" };
        var command = new Command("compare", "Compares two results files cell by cell; a cell slower past the threshold is exit code 12.")
        {
            baseFile, newFile, threshold, output,
        };
        command.SetAction(parseResult =>
        {
            FileInfo before = parseResult.GetRequiredValue(baseFile);
            FileInfo after = parseResult.GetRequiredValue(newFile);
            RunComparison comparison;
            try
            {
                comparison = RunComparison.Compare(ResultCells.ReadRun(before.FullName), ResultCells.ReadRun(after.FullName), parseResult.GetValue(threshold));
            }
            catch (ResultsFileException e)
            {
                parseResult.InvocationConfiguration.Error.WriteLine($"kvbench: {e.Message}");
                return ExitCodes.Usage;
            }

            string markdown = comparison.ToMarkdown(before.Name, after.Name);
            parseResult.InvocationConfiguration.Output.Write(markdown);
            if (parseResult.GetValue(output) is { } file)
            {
                File.WriteAllText(file.FullName, markdown);
            }

            return comparison.Regressed ? ExitCodes.Regressed : ExitCodes.Ok;
        });
        return command;
    }
}
