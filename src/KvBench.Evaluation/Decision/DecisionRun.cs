using System.Diagnostics;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Evaluation.Decision;

/// <summary>What a decision run measures and where it writes: what <c>kvbench decide</c> and the evaluation fill in.</summary>
public sealed record DecisionRequest
{
    /// <summary>The profile.</summary>
    public required DecisionProfile Profile { get; init; }

    /// <summary>The profile's file, linked from the record; <see langword="null"/> for a profile made in code.</summary>
    public string? ProfilePath { get; init; }

    /// <summary>The markdown file to write.</summary>
    public required string OutputFile { get; init; }

    /// <summary>The command that regenerates the record, printed in it.</summary>
    public required string Command { get; init; }

    /// <summary>How hard to measure. Default: <see cref="DecisionSettings"/>' defaults.</summary>
    public DecisionSettings Settings { get; init; } = new();

    /// <summary>A scratch directory; default (<see langword="null"/>): a new folder under the system temp folder, deleted afterwards.</summary>
    public string? WorkDirectory { get; init; }

    /// <summary>Capability measurements the run already made (the evaluation's probes), taken instead of probing again.</summary>
    public IReadOnlyList<StoreMeasurement>? Probed { get; init; }

    /// <summary>
    /// Writer-beside-reader runs the run already made (the evaluation's contention section), taken for an option when
    /// they ran the scenario the profile asks for, at its tier.
    /// </summary>
    public IReadOnlyList<ImportContentionResult>? Contended { get; init; }

    /// <summary>
    /// Power-loss rounds the run already made (the power-loss section), taken for an option when they ran at the
    /// profile's tier with at least the rounds the settings ask for.
    /// </summary>
    public IReadOnlyList<CrashRoundsResult>? PowerCuts { get; init; }
}

/// <summary>What a decision run produced.</summary>
/// <param name="File">The record written; its results file is beside it (<see cref="ResultsFile.PathFor"/>).</param>
/// <param name="Outcome">The outcome.</param>
/// <param name="Problems">Measurements that went wrong (a wrong read, an error): the run is then no result.</param>
public sealed record DecisionResult(string File, DecisionOutcome Outcome, IReadOnlyList<string> Problems);

/// <summary>The one orchestrator of a decision: measure, decide, write the record.</summary>
public static class DecisionRun
{
    /// <summary>Measures what <paramref name="request"/>'s drivers need, decides, and writes the record and its results file.</summary>
    public static async Task<DecisionResult> RunAsync(DecisionRequest request, KvBenchCli? cli, Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(request);
        string workDirectory = request.WorkDirectory ?? Path.Combine(Path.GetTempPath(), "kvbench-decide-" + Guid.NewGuid().ToString("N"));
        long started = Stopwatch.GetTimestamp();
        try
        {
            var measurer = new DecisionMeasurer(request.Profile, request.Settings, cli, workDirectory, log);
            DecisionEvidence evidence = await measurer.MeasureAsync(request.Probed, request.Contended, request.PowerCuts).ConfigureAwait(false);
            DecisionOutcome outcome = DecisionOutcome.Decide(request.Profile.Drivers, evidence.Figures());
            string file = Path.GetFullPath(request.OutputFile);
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            string? profileLink = request.ProfilePath is { } profile ? LinkTo(Path.GetFullPath(profile), Path.GetDirectoryName(file)!) : null;
            var results = new DecisionResults(
                request.Command, DateTimeOffset.UtcNow, MachineInfo.Collect(workDirectory), evidence, profileLink, Stopwatch.GetElapsedTime(started));
            // The record is drawn from its results file as kvbench render draws it, so the two cannot tell different stories.
            await results.RenderAsync(file, ResultsFile.PathFor(file)).ConfigureAwait(false);
            await results.WriteAsync(ResultsFile.PathFor(file)).ConfigureAwait(false);
            return new DecisionResult(file, outcome, Problems(evidence));
        }
        finally
        {
            if (request.WorkDirectory is null)
            {
                AdrContext.TryDelete(workDirectory);
            }
        }
    }

    /// <summary>
    /// <paramref name="target"/> relative to <paramref name="from"/> when both lie in one repository (a link that works
    /// on a clone), else its full path.
    /// </summary>
    public static string LinkTo(string target, string from)
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(from);
        string? root = RepositoryOf(from);
        return root is not null && RepositoryOf(Path.GetDirectoryName(target)!) == root
            ? Path.GetRelativePath(from, target).Replace('\\', '/')
            : target;

        static string? RepositoryOf(string directory)
        {
            for (DirectoryInfo? at = new(directory); at is not null; at = at.Parent)
            {
                if (Directory.Exists(Path.Combine(at.FullName, ".git")) || File.Exists(Path.Combine(at.FullName, ".git")))
                {
                    return at.FullName;
                }
            }

            return null;
        }
    }

    /// <summary>A wrong read or an error in a measurement is no result: a figure cannot stand on it.</summary>
    private static List<string> Problems(DecisionEvidence evidence) =>
    [
        .. evidence.Options
            .Concat(evidence.Floor is { } floor ? [floor] : [])
            .SelectMany(option => option.Rounds)
            .Select(round => round.Failure)
            .OfType<string>()
            .Select(failure => $"Workload failed: {failure}"),
        .. evidence.Options
            .SelectMany(option => option.Contention)
            .Select(run => run.Failure)
            .OfType<string>()
            .Select(failure => $"Writer beside reader failed: {failure}"),
    ];
}
