using KvBench.Evaluation.Decision;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Capabilities;
using KvBench.Evaluation.Reports.Sections.Contention;
using KvBench.Evaluation.Reports.Sections.PowerLoss;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// The one orchestrator of an ADR file, what <c>kvbench adr</c> and the evaluation run both call: measures each section
/// of <see cref="AdrSections"/> in turn, writes the file and its charts, and says what failed.
/// </summary>
public static class AdrGenerator
{
    /// <summary>The folder BenchmarkDotNet writes its reports to, relative to the directory a run starts in.</summary>
    public const string DefaultResultsDirectory = "BenchmarkDotNet.Artifacts/results";

    /// <summary>
    /// Bounds for the two-process check in a report run: a memory-only store never shows its peer's writes, and the
    /// check gives up on that after <see cref="MultiProcessTimeouts.SeePeer"/>, so it is kept well below the test default.
    /// </summary>
    public static MultiProcessTimeouts MultiProcessTimeouts { get; } = new() { SeePeer = TimeSpan.FromSeconds(10) };

    /// <summary>
    /// Measures the sections <paramref name="request"/> asks for, writes <see cref="AdrRequest.OutputFile"/> with its
    /// charts, says where to <paramref name="output"/> and each problem to <paramref name="errors"/>.
    /// </summary>
    /// <param name="request">What to measure and where to write it.</param>
    /// <param name="cli">
    /// The CLI to start as other processes (two-process, kill and contention checks), or <see langword="null"/> to
    /// leave those unmeasured.
    /// </param>
    /// <param name="output">Where the file and its charts went.</param>
    /// <param name="errors">One line per problem.</param>
    /// <param name="log">What each step starts and how long it took.</param>
    /// <returns>The problems: the run is no result (kvbench exits with its check-failed code) when there is any.</returns>
    public static async Task<IReadOnlyList<string>> WriteAsync(
        AdrRequest request, KvBenchCli? cli, TextWriter output, TextWriter errors, Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(errors);
        IReadOnlyList<AdrSection> sections = request.CreateSections();
        string workDirectory = request.WorkDirectory ?? Path.Combine(Path.GetTempPath(), "kvbench-adr-" + Guid.NewGuid().ToString("N"));
        try
        {
            AdrReport report = await MeasureAsync(
                sections,
                new AdrContext(workDirectory, request.ResultsDirectory, cli, log),
                request.Command).ConfigureAwait(false);
            string file = Path.GetFullPath(request.OutputFile);
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            ChartImages charts = await report.WriteAsync(file).ConfigureAwait(false);
            await output.WriteLineAsync($"Wrote {file}").ConfigureAwait(false);
            await output.WriteLineAsync($"Results: {ResultsFile.PathFor(file)}").ConfigureAwait(false);
            await output.WriteLineAsync(
                charts.Problem
                    ?? $"Charts: {charts.Images.Count} PNGs with their data files in {ChartFiles.FolderFor(file)}").ConfigureAwait(false);
            List<string> problems = [.. report.Problems()];
            if (request.Profile is { } profile)
            {
                log?.Invoke($"Deciding for {request.ProfilePath ?? DecisionProfiles.DefaultPath}: {ProfileDescription.Summary(profile)}");
                DecisionResult decision = await DecisionRun.RunAsync(
                    new DecisionRequest
                    {
                        Profile = profile,
                        ProfilePath = request.ProfilePath,
                        OutputFile = request.DecisionFile,
                        Command = request.Command,
                        Settings = request.DecisionSettings,
                        WorkDirectory = Path.Combine(workDirectory, "decision"),
                        Probed = sections.OfType<CapabilitiesSection>().FirstOrDefault()?.Measurements,
                        Contended = sections.OfType<ContentionSection>().FirstOrDefault()?.Results,
                        PowerCuts = sections.OfType<PowerLossSection>().FirstOrDefault()?.Results,
                    },
                    cli,
                    log).ConfigureAwait(false);
                await output.WriteLineAsync($"Wrote {decision.File}: {decision.Outcome}").ConfigureAwait(false);
                problems.AddRange(decision.Problems);
            }

            foreach (string problem in problems)
            {
                await errors.WriteLineAsync(problem).ConfigureAwait(false);
            }

            return problems;
        }
        finally
        {
            if (request.WorkDirectory is null && Directory.Exists(workDirectory))
            {
                Directory.Delete(workDirectory, recursive: true);
            }
        }
    }

    /// <summary>Measures <paramref name="sections"/> in turn in <paramref name="context"/> and puts them in one report.</summary>
    /// <param name="sections">The sections, in the file's order.</param>
    /// <param name="context">Where they work; its file system is the one reported.</param>
    /// <param name="command">The command that regenerates the file, printed in it.</param>
    public static async Task<AdrReport> MeasureAsync(IReadOnlyList<AdrSection> sections, AdrContext context, string command)
    {
        ArgumentNullException.ThrowIfNull(sections);
        ArgumentNullException.ThrowIfNull(context);
        Directory.CreateDirectory(context.WorkDirectory);
        foreach (AdrSection section in sections)
        {
            await section.MeasureAsync(context).ConfigureAwait(false);
        }

        return new AdrReport
        {
            Sections = sections,
            Machine = MachineInfo.Collect(context.WorkDirectory),
            Command = command,
            GeneratedAt = DateTimeOffset.UtcNow,
        };
    }
}
