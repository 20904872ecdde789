using KvBench.Evaluation.Workload;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>Finds one run of a thread sweep that a comparison may stand on.</summary>
internal static class SweepRun
{
    /// <summary>
    /// The run of <paramref name="row"/> with <paramref name="mix"/> at <paramref name="threads"/> threads, when it
    /// completed with no wrong read and no error; otherwise <see langword="null"/>: there is nothing to compare with.
    /// </summary>
    public static WorkloadResult? Completed(IReadOnlyList<WorkloadResult> runs, string row, OperationMix mix, int threads) =>
        runs.FirstOrDefault(run => run.Store == row && run.Workload.Mix == mix && run.Settings.Threads == threads && run.Succeeded);
}
