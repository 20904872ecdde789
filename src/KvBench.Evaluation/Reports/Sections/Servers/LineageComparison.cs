using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>
/// Garnet over loopback against FASTER in the client's process, from one thread sweep: the same value size, threads,
/// keyspace and tier. Garnet's storage is Tsavorite, FASTER's maintained successor, so what separates the two rates is
/// mostly what the server and the network cost a call.
/// </summary>
/// <param name="Durability">The tier of both.</param>
/// <param name="Threads">The threads of both runs.</param>
/// <param name="Operation">Put (the write-only run) or Get (the read-only run).</param>
/// <param name="ServerPerSecond">Garnet's operations per second.</param>
/// <param name="InProcessPerSecond">FASTER's operations per second.</param>
public sealed record LineageComparison(Durability Durability, int Threads, string Operation, double ServerPerSecond, double InProcessPerSecond)
{
    /// <summary>The row over loopback: the server row that names the engine it stores in.</summary>
    public static string ServerRow { get; } = StoreCatalog.ServerRows.First(row => row.InProcessLineage is not null).Name;

    /// <summary>The row in the client's process: that engine's embedded row.</summary>
    public static string InProcessRow { get; } = StoreCatalog.ServerRows.First(row => row.InProcessLineage is not null).InProcessLineage!;

    /// <summary>Garnet's rate over FASTER's: below 1, the server and the network cost that much of the in-process rate.</summary>
    public double Ratio => ServerPerSecond / InProcessPerSecond;

    /// <summary>
    /// Each Put and Get at each of <paramref name="threads"/> where both rows' runs of <paramref name="threadSweep"/>
    /// completed; empty when either row was not in the sweep (FASTER has no Synced, so neither does this line).
    /// </summary>
    public static IReadOnlyList<LineageComparison> From(IReadOnlyList<WorkloadResult> threadSweep, IEnumerable<int> threads, Durability durability)
    {
        ArgumentNullException.ThrowIfNull(threadSweep);
        ArgumentNullException.ThrowIfNull(threads);
        var comparisons = new List<LineageComparison>();
        foreach (int count in threads)
        {
            foreach ((string operation, OperationMix mix) in new[] { ("Put", OperationMix.WriteOnly), ("Get", OperationMix.ReadOnly) })
            {
                if (SweepRun.Completed(threadSweep, ServerRow, mix, count) is { } server
                    && SweepRun.Completed(threadSweep, InProcessRow, mix, count) is { } inProcess)
                {
                    comparisons.Add(new LineageComparison(durability, count, operation, server.OperationsPerSecond, inProcess.OperationsPerSecond));
                }
            }
        }

        return comparisons;
    }
}
