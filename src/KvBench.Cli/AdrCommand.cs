using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.PowerLoss;

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
            HelpName = "file",
        };
        var quick = new Option<bool>("--quick") { Description = "Smaller stores, shorter loops and runs: every row within a few minutes." };
        var full = new Option<bool>("--full") { Description = "Larger values and stores, longer loops and runs." };
        var results = new Option<DirectoryInfo>("--results")
        {
            Description = "BenchmarkDotNet's reports; the newest tables go in.",
            DefaultValueFactory = static _ => new DirectoryInfo(AdrGenerator.DefaultResultsDirectory),
            HelpName = "dir",
        };
        Option<DirectoryInfo?> workDirectory = WorkloadCommands.WorkDirectory("Scratch directory, on the file system to measure");
        Option<string[]> sections = ListOptions.Names(
            "--sections",
            "Only these sections of the file (docs/cli.md lists them); all when left out.",
            UnknownSection);
        sections.HelpName = "names";
        sections.CompletionSources.Add([.. AdrSections.Names]);
        var servers = new Option<bool>("--servers") { Description = "Add the server rows' sections, their servers installed, started and stopped here." };
        var command = new Command("adr", "Measures every capability of every store and writes one ADR-ready markdown file.")
        {
            output, quick, full, results, workDirectory, sections, servers,
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
            bool isQuick = parseResult.GetValue(quick);
            bool isFull = parseResult.GetValue(full);
            FileInfo file = parseResult.GetValue(output)!;
            string[] only = parseResult.GetValue(sections) ?? [];
            bool withServers = parseResult.GetValue(servers);
            var request = new AdrRequest
            {
                OutputFile = file.FullName,
                // The rounds' variable changes what the file measures, so the command that regenerates it carries it.
                Command = $"{RoundsVariableSet()}kvbench adr --output {file.Name}" +
                    $"{(isQuick ? " --quick" : string.Empty)}{(isFull ? " --full" : string.Empty)}" +
                    $"{(withServers ? " --servers" : string.Empty)}" +
                    $"{(only.Length > 0 ? $" --sections {string.Join(' ', only)}" : string.Empty)}",
                Preset = isQuick ? AdrPreset.Quick : isFull ? AdrPreset.Full : AdrPreset.Default,
                ResultsDirectory = parseResult.GetValue(results)!.FullName,
                WorkDirectory = parseResult.GetValue(workDirectory)?.FullName,
                Sections = only.Length > 0 ? only : null,
                Servers = withServers,
            };
            TextWriter console = parseResult.InvocationConfiguration.Output;
            IReadOnlyList<string> problems = await AdrGenerator.WriteAsync(
                request,
                KvBenchCli.Locate(),
                console,
                parseResult.InvocationConfiguration.Error,
                console.WriteLine).ConfigureAwait(false);
            return problems.Count > 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
        });
        return command;
    }

    private static string? UnknownSection(string name) =>
        AdrSections.Names.Contains(name, StringComparer.OrdinalIgnoreCase)
            ? null
            : $"--sections: no section is named '{name}'; the sections are {string.Join(", ", AdrSections.Names)}.";

    /// <summary>"KVBENCH_CRASH_ROUNDS=N KVBENCH_POWER_ROUNDS=M " for those of the two that are set, so the file's command repeats the run.</summary>
    private static string RoundsVariableSet() => string.Concat(
        new[] { CrashRounds.RoundsVariable, PowerLossRounds.RoundsVariable }
            .Select(variable => Environment.GetEnvironmentVariable(variable) is { Length: > 0 } rounds ? $"{variable}={rounds} " : string.Empty));
}
