using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>
/// Runs each server's own benchmark tool beside its row's Puts and Gets of the thread sweep: same server, value size,
/// keyspace, clients and tier.
/// </summary>
public static class OwnBenchmarkRunner
{
    /// <summary>Requests below which a count-bound tool's rate is mostly its start.</summary>
    private const long MinimumRequests = 1_000;

    /// <summary>
    /// For each client count of <paramref name="suites"/>, the tool of <paramref name="row"/> against its server at
    /// <paramref name="endpoint"/> beside the row's write-only and read-only runs of <paramref name="threadSweep"/>. A
    /// count whose row runs did not both complete without a wrong read or an error is left out: there is nothing to
    /// compare with. A count-bound tool sends as many requests as the row's faster run completed in its window.
    /// </summary>
    /// <exception cref="ServerBenchmarkException">The tool failed or printed what is not its report.</exception>
    public static async Task<IReadOnlyList<OwnBenchmarkComparison>> CompareAsync(
        ServerRow row,
        string endpoint,
        IReadOnlyList<WorkloadResult> threadSweep,
        SuiteSettings suites,
        Durability durability,
        Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(threadSweep);
        ArgumentNullException.ThrowIfNull(suites);
        if (row.OwnBenchmark is not { } tool)
        {
            return [];
        }

        var comparisons = new List<OwnBenchmarkComparison>();
        foreach (int clients in suites.SweepThreads)
        {
            if (SweepRun.Completed(threadSweep, row.Name, OperationMix.WriteOnly, clients)?.Of(OperationType.Update) is not { } puts
                || SweepRun.Completed(threadSweep, row.Name, OperationMix.ReadOnly, clients)?.Of(OperationType.Read) is not { } gets)
            {
                continue;
            }

            var run = new ServerBenchmarkRun
            {
                Durability = durability,
                ValueBytes = WorkloadSpec.DefaultValueBytes,
                Clients = clients,
                Records = suites.Records,
                Duration = suites.Duration,
                Requests = Math.Max(MinimumRequests, (long)(Math.Max(puts.OperationsPerSecond, gets.OperationsPerSecond) * suites.Duration.TotalSeconds)),
            };
            ServerBenchmarkResult result = await tool.RunAsync(endpoint, run).ConfigureAwait(false);
            log?.Invoke(
                $"{tool.Tool} x{clients} against {row.Name}'s server at {durability}: {result.PutsPerSecond:N0} " +
                    $"writes/s, {result.GetsPerSecond:N0} reads/s");
            comparisons.Add(
                new OwnBenchmarkComparison(
                    row.Name, durability, tool.Tool, clients, puts.OperationsPerSecond, result.PutsPerSecond,
                    gets.OperationsPerSecond, result.GetsPerSecond, result.Commands));
        }

        return comparisons;
    }
}
