using System.CommandLine;

using KvBench.Evaluation.Decision;
using KvBench.Evaluation.MultiProcess;

namespace KvBench.Cli;

/// <summary><c>decide</c>: measures what a profile's drivers need on every candidate and writes the decision record.</summary>
internal static class DecideCommand
{
    public static Command Create()
    {
        var profile = new Option<FileInfo>("--profile", "-p")
        {
            Description = "Your workload, drivers and candidates (`kvbench profile init` writes one).",
            Required = true,
            HelpName = "file",
        };
        var output = new Option<FileInfo>("--output", "-o")
        {
            Description = "The decision record to write.",
            DefaultValueFactory = static _ => new FileInfo("kvbench-decision.md"),
            HelpName = "file",
        };
        Option<int> rounds = new Option<int>("--rounds")
        {
            Description = "Rounds of the workload per option; more narrow the intervals.",
            DefaultValueFactory = static _ => new DecisionSettings().Rounds,
            HelpName = "count",
        }.Between(1, 100);
        var all = new Option<bool>("--all") { Description = "Measure every option on every driver, also those a must-driver already put out." };
        var quick = new Option<bool>("--quick") { Description = "Short rounds and single runs: a first look, not a decision." };
        Option<DirectoryInfo?> workDirectory = WorkloadCommands.WorkDirectory("Scratch directory, on the file system to measure");
        var command = new Command("decide", "Measures what a profile's drivers need on every candidate and writes the decision record.")
        {
            profile, output, rounds, all, quick, workDirectory,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            FileInfo profileFile = parseResult.GetValue(profile)!;

            // Read before anything is measured: a bad profile is one line and exit code 2 (ProfileException).
            DecisionProfile read = ProfileReader.Read(profileFile.FullName);
            DecisionSettings settings = (parseResult.GetValue(quick) ? DecisionSettings.Smoke : new DecisionSettings()) with
            {
                MeasureEveryOption = parseResult.GetValue(all),
            };
            if (parseResult.GetResult(rounds) is { Implicit: false })
            {
                settings = settings with { Rounds = parseResult.GetValue(rounds) };
            }

            FileInfo file = parseResult.GetValue(output)!;
            TextWriter console = parseResult.InvocationConfiguration.Output;
            var request = new DecisionRequest
            {
                Profile = read,
                ProfilePath = profileFile.FullName,
                OutputFile = file.FullName,
                Command = Regenerate(
                    parseResult.GetValue(profile)!, file, parseResult.GetValue(quick), parseResult.GetValue(all),
                    parseResult.GetResult(rounds) is { Implicit: false } ? settings.Rounds : null,
                    parseResult.GetValue(StoreArguments.RowAssemblies) ?? []),
                Settings = settings,
                WorkDirectory = parseResult.GetValue(workDirectory)?.FullName,
            };
            console.WriteLine($"Deciding: {ProfileDescription.Summary(read)}");
            DecisionResult result = DecisionRun.RunAsync(request, KvBenchCli.Locate(), console.WriteLine).GetAwaiter().GetResult();
            console.WriteLine($"Wrote {result.File}: {result.Outcome}");
            foreach (string problem in result.Problems)
            {
                parseResult.InvocationConfiguration.Error.WriteLine(problem);
            }

            return result.Problems.Count > 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
        });
        return command;
    }

    /// <summary>
    /// The command as a reader types it from the directory it was run in, to regenerate the record; the
    /// <c>--rows-from</c> paths as they were typed, since without them the candidates from a team's assembly are unknown.
    /// </summary>
    internal static string Regenerate(FileInfo profile, FileInfo output, bool quick, bool all, int? rounds, IReadOnlyList<string> rowsFrom) =>
        $"kvbench decide --profile {Relative(profile.FullName)} --output {Relative(output.FullName)}" +
            $"{(quick ? " --quick" : string.Empty)}{(all ? " --all" : string.Empty)}" +
            $"{(rounds is { } count ? $" --rounds {count}" : string.Empty)}" +
            string.Concat(rowsFrom.Select(path => $" --rows-from {path}"));

    /// <summary>The path from the current directory when it lies below it, else the full path.</summary>
    private static string Relative(string path) =>
        Path.GetRelativePath(Environment.CurrentDirectory, path) is { } relative
            && !relative.StartsWith("..", StringComparison.Ordinal)
            && !Path.IsPathRooted(relative)
            ? relative.Replace('\\', '/')
            : path;
}
