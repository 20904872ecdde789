using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Evaluation.Decision;
using KvBench.Evaluation.Reports.Sections;

namespace KvBench.Benchmarks;

/// <summary>
/// What one run of the benchmarks' program does (<see cref="EvaluationRun"/>): which BenchmarkDotNet cases it runs and,
/// for an evaluation, which ADR settings follow them.
/// </summary>
internal sealed record EvaluationPlan
{
    /// <summary>The command that runs the default evaluation, printed in the ADR file.</summary>
    public const string EvaluationCommand = "dotnet run -c Release --project benchmarks/KvBench.Benchmarks";

    /// <summary>The default evaluation: both suites with the short job, the paired measurement, the ADR at its default settings.</summary>
    public static EvaluationPlan Default { get; } = new()
    {
        Benchmarks = () => RunSuites(KvBenchConfig.EvaluationJob, servers: false),
        PointJob = KvBenchConfig.EvaluationJob,
        Adr = AdrPreset.Default,
        Command = EvaluationCommand,
    };

    /// <summary><see cref="BenchmarkArguments.FullSwitch"/>: the same at BenchmarkDotNet's default precision and the ADR's full settings.</summary>
    public static EvaluationPlan Full { get; } = new()
    {
        Benchmarks = () => RunSuites(Job.Default, servers: false),
        PointJob = Job.Default,
        Adr = AdrPreset.Full,
        Command = $"{EvaluationCommand} -- {BenchmarkArguments.FullSwitch}",
    };

    /// <summary>Runs the cases; called once, inside the run's shared datasets.</summary>
    public required Func<IEnumerable<Summary>> Benchmarks { get; init; }

    /// <summary>
    /// The job of an evaluation's point operations, which <see cref="WithServers"/> gives the server rows' too;
    /// <see langword="null"/> for BenchmarkDotNet's own arguments.
    /// </summary>
    private Job? PointJob { get; init; }

    /// <summary>
    /// The ADR's settings when the run is an evaluation (the paired measurement and the ADR file follow the cases), or
    /// <see langword="null"/> for BenchmarkDotNet's own arguments, which run the cases and write their ratio files only.
    /// </summary>
    public AdrPreset? Adr { get; init; }

    /// <summary>The command that regenerates the ADR file; only an evaluation writes one.</summary>
    public string Command { get; init; } = EvaluationCommand;

    /// <summary>Whether the ADR file gets the server rows' section after the others (<see cref="BenchmarkArguments.ServersSwitch"/>). Default: no.</summary>
    public bool Servers { get; init; }

    /// <summary>
    /// This evaluation with the server rows: their point operations (<see cref="ServerPointOperations"/>) in the same
    /// BenchmarkDotNet run, and their section in the ADR file; its command with <see cref="BenchmarkArguments.ServersSwitch"/>.
    /// </summary>
    public EvaluationPlan WithServers() => this with
    {
        Servers = true,
        Benchmarks = PointJob is { } job ? () => RunSuites(job, servers: true) : Benchmarks,
        Command = CommandWith(BenchmarkArguments.ServersSwitch),
    };

    /// <summary>
    /// The profile the evaluation decides for after the ADR file, and its file; <see langword="null"/> for the desktop
    /// profile (<see cref="DecisionProfiles.Default"/>).
    /// </summary>
    public (DecisionProfile Profile, string Path)? Profile { get; init; }

    /// <summary>
    /// This evaluation deciding for <paramref name="profile"/> (the default one when <see langword="null"/>), its
    /// command with <see cref="BenchmarkArguments.ProfileSwitch"/>.
    /// </summary>
    public EvaluationPlan For((DecisionProfile Profile, string Path)? profile) => profile is not { } given ? this : this with
    {
        Profile = given,
        Command = CommandWith($"{BenchmarkArguments.ProfileSwitch} {given.Path}"),
    };

    /// <summary>The command with <paramref name="arguments"/> after it, behind the <c>--</c> that hands them to the program.</summary>
    private string CommandWith(string arguments) => Command == EvaluationCommand ? $"{Command} -- {arguments}" : $"{Command} {arguments}";

    /// <summary>The cases <paramref name="runBenchmarks"/> runs (BenchmarkDotNet's arguments), with nothing after them but their ratio files.</summary>
    public static EvaluationPlan BenchmarksOnly(Func<IEnumerable<Summary>> runBenchmarks) => new() { Benchmarks = runBenchmarks };

    /// <summary>
    /// Point operations with <paramref name="pointJob"/> (the server rows' too when <paramref name="servers"/>), then
    /// synced puts with their own default job (<see cref="SlowOperationsAttribute"/>), in one BenchmarkDotNet run: one
    /// build of the benchmark process for all, where two runs would build it twice, a noticeable part of the default
    /// run's 15 minutes.
    /// </summary>
    private static Summary[] RunSuites(Job pointJob, bool servers) =>
        BenchmarkRunner.Run(
        [
            BenchmarkConverter.TypeToBenchmarks(typeof(PointOperations), KvBenchConfig.Create(pointJob)),
            .. servers ? [BenchmarkConverter.TypeToBenchmarks(typeof(ServerPointOperations), KvBenchConfig.Create(pointJob))] : Array.Empty<BenchmarkRunInfo>(),
            BenchmarkConverter.TypeToBenchmarks(typeof(SyncedPuts), KvBenchConfig.Create(job: null)),
        ]);
}
