using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Paired;
using KvBench.Evaluation.Decision;

namespace KvBench.Benchmarks;

/// <summary>
/// The benchmarks' entry point: picks what the arguments ask for and hands it to <see cref="EvaluationRun"/>. With no
/// arguments, the evaluation (<see cref="EvaluationPlan.Default"/>); with <c>--full</c>, the same at full precision;
/// with <c>--servers</c> (alone or after <c>--full</c>), either with the server rows' section;
/// with <c>--paired</c>, the paired measurement alone; anything else goes to BenchmarkDotNet's
/// <see cref="BenchmarkSwitcher"/> (<c>--filter</c>, <c>--job</c>, <c>--list</c>, ...), with <c>--rows</c> keeping some
/// rows (<see cref="BenchmarkArguments"/>). <c>--profile FILE</c> makes an evaluation decide for that profile.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        string[] rest;
        DecisionProfile? profile = null;
        try
        {
            rest = BenchmarkArguments.WithoutProfile(args, out string? profilePath);
            profile = profilePath is null ? null : ProfileReader.Read(profilePath);
            return Run(rest, profile is null ? null : (profile, profilePath!));
        }
        catch (Exception e) when (e is ProfileException or ArgumentException)
        {
            // A bad profile or switch is one line and the usage code, before anything is measured.
            Console.Error.WriteLine($"KvBench.Benchmarks: {e.Message}");
            return 2;
        }
    }

    private static int Run(string[] args, (DecisionProfile Profile, string Path)? profile) => args switch
    {
        // A worker process the paired measurement starts.
        [PairedPriceWorker.Switch, string row, string output, string process] => PairedPriceWorker.RunProcess(row, output, process, cells: null),
        [PairedPriceWorker.Switch, string row, string output, string process, string cells] => PairedPriceWorker.RunProcess(row, output, process, cells),
        [BenchmarkArguments.PairedSwitch, .. string[] pairedArgs] => PairedMeasurement.RunAlone(pairedArgs),
        [] => EvaluationRun.Run(EvaluationPlan.Default.For(profile)),
        [BenchmarkArguments.FullSwitch] => EvaluationRun.Run(EvaluationPlan.Full.For(profile)),
        [BenchmarkArguments.ServersSwitch] => EvaluationRun.Run(EvaluationPlan.Default.WithServers().For(profile)),
        [
            BenchmarkArguments.FullSwitch,
            BenchmarkArguments.ServersSwitch] or [
                BenchmarkArguments.ServersSwitch,
                BenchmarkArguments.FullSwitch] => EvaluationRun.Run(EvaluationPlan.Full.WithServers().For(profile)),
        _ => EvaluationRun.Run(EvaluationPlan.BenchmarksOnly(() =>
            BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(
                BenchmarkArguments.WithoutRows(args, out IReadOnlyList<string>? rows),
                KvBenchConfig.ForCommandLine(rows)))),
    };
}
