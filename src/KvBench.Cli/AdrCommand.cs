using System.CommandLine;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Servers;
using KvBench.Stores;

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
        var sections = new Option<string[]>("--section")
        {
            Description = $"Runs only this section of the file; repeat it for more. The sections: {string.Join(", ", AdrSections.Names)}. Default: every section.",
            HelpName = "name",
        };
        var servers = new Option<bool>("--servers")
        {
            Description = $"Adds the server rows' sections ({string.Join(", ", AdrSections.CreateServers(AdrPreset.Default).Select(section => section.Name))}): {string.Join(", ", StoreCatalog.ServerNames)} beside {string.Join(", ", new ServerSectionSettings().EmbeddedRows)}, their servers installed when missing, started and always stopped.",
        };
        var command = new Command("adr", "Measures every capability of every store (largest key and value, growth, two processes, prefix scans, reads and writes per second, durability) and writes one ADR-ready markdown file with the latest benchmark tables and charts (Mermaid inline; PNGs drawn by gnuplot into a folder beside the file, named after it with -charts).")
        {
            output, quick, full, results, workDirectory, sections, servers,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(quick) && result.GetValue(full))
            {
                result.AddError("--quick and --full cannot be combined.");
            }

            foreach (string name in (result.GetValue(sections) ?? []).Where(name => !AdrSections.Names.Contains(name, StringComparer.OrdinalIgnoreCase)))
            {
                result.AddError($"--section: no section is named '{name}'; the sections are {string.Join(", ", AdrSections.Names)}.");
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
                Command = $"{RoundsVariableSet()}kvbench adr --output {file.Name}{(isQuick ? " --quick" : string.Empty)}{(isFull ? " --full" : string.Empty)}{(withServers ? " --servers" : string.Empty)}{string.Concat(only.Select(name => $" --section {name}"))}",
                Preset = isQuick ? AdrPreset.Quick : isFull ? AdrPreset.Full : AdrPreset.Default,
                ResultsDirectory = parseResult.GetValue(results)!.FullName,
                WorkDirectory = parseResult.GetValue(workDirectory)?.FullName,
                Sections = only.Length > 0 ? only : null,
                Servers = withServers,
            };
            TextWriter console = parseResult.InvocationConfiguration.Output;
            IReadOnlyList<string> problems = await AdrGenerator.WriteAsync(request, KvBenchCli.Locate(), console, parseResult.InvocationConfiguration.Error, console.WriteLine).ConfigureAwait(false);
            return problems.Count > 0 ? ExitCodes.Error : ExitCodes.Ok;
        });
        return command;
    }

    /// <summary>"KVBENCH_CRASH_ROUNDS=N " when the variable is set, else nothing.</summary>
    private static string RoundsVariableSet() =>
        Environment.GetEnvironmentVariable(CrashRounds.RoundsVariable) is { Length: > 0 } rounds ? $"{CrashRounds.RoundsVariable}={rounds} " : string.Empty;
}
