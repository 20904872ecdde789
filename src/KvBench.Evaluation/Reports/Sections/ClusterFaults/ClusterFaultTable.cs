using System.Globalization;
using System.Text;

using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>Cluster faults as the ADR shows them: one line per fault, what the client saw before, during and after it.</summary>
public static class ClusterFaultTable
{
    /// <summary>The table of <paramref name="results"/>, with a line that says how they were run.</summary>
    public static string ToMarkdown(IReadOnlyList<ClusterFaultResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var markdown = new StringBuilder();
        if (results.Count == 0)
        {
            return markdown.AppendLine("No cluster fault was run.").ToString();
        }

        ClusterFaultSettings settings = results[0].Settings;
        markdown.AppendLine(
            CultureInfo.InvariantCulture,
            $"YCSB workload A's mix ({settings.ReadFraction * 100:0}% reads, the rest updates, uniform over " +
                $"{settings.Records:N0} keys, {settings.ValueBytes} B values) at {settings.Rate:N0} operations a " +
                $"second from {settings.Clients} clients, open loop (each timed from when it was due), each client " +
                $"updating only keys of its own, through the row's adapter on a cluster of KvBench's own on this " +
                $"machine (or, for a row of one server, on a server of its own at Synced where the row offers it, " +
                $"its leader itself): {settings.Before.TotalSeconds:0.#} s, then one member faulted for " +
                $"{settings.During.TotalSeconds:0.#} s (killed with SIGKILL and started again on its data, or paused " +
                $"with SIGSTOP and resumed), then {settings.After.TotalSeconds:0.#} s with it back. Lost: keys that, " +
                $"read once a leader was elected after the run, held an older version than the last update " +
                $"acknowledged. Stale: reads that returned an older version than one acknowledged before they were " +
                $"sent. Updates stalled for: the longest time, from the fault on, without an acknowledged update. " +
                $"Before: operations that returned before the fault; during: those still out when it began (a call " +
                $"sent to a member just before it was paused waits with it) or due while it lasted; after: those due " +
                $"once the member was back, which may wait behind the backlog.").AppendLine();
        var table = new MarkdownTable(
            "Row", "Replication", "Fault", "Member", "Updates acknowledged", "Lost", "Reads", "Stale reads", "Errors",
            "Updates stalled for", "p99 / max before (ms)", "p99 / max during (ms)", "p99 / max after (ms)");
        foreach (ClusterFaultResult result in results)
        {
            table.Add(
                result.Row,
                StoreCatalog.Row(result.Row) is ServerRow row ? row.Replication : "-",
                $"{result.Settings.Fault} {result.Settings.Target.ToString().ToLowerInvariant()}" +
                    $"{(result.Settings.RelaxedReads ? ", reads without a quorum" : string.Empty)}",
                result.Member.ToString(CultureInfo.InvariantCulture),
                result.WritesAcknowledged.ToString("N0", CultureInfo.InvariantCulture),
                result.LostAfterRun.ToString("N0", CultureInfo.InvariantCulture),
                result.Reads.ToString("N0", CultureInfo.InvariantCulture),
                result.StaleReads.ToString("N0", CultureInfo.InvariantCulture),
                result.Errors.Count == 0
                    ? "none"
                    : string.Join(
                        "; ",
                        result.Errors.OrderByDescending(error => error.Value).Select(error => $"{error.Value} {error.Key}")),
                result.LongestStallSeconds is { } seconds ? $"{seconds:0.00} s" : "no update after the fault",
                Latency(result.Before),
                Latency(result.During),
                Latency(result.After));
        }

        table.WriteTo(markdown);
        return markdown.ToString();
    }

    /// <summary>
    /// Single writes against batched ones, and the row's own reads against relaxed ones, per cluster row, beside the
    /// published figures a reader may hold them against.
    /// </summary>
    public static string RequestsToMarkdown(IReadOnlyList<ClusterRequestsResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var markdown = new StringBuilder();
        if (results.Count == 0)
        {
            return markdown.AppendLine("No cluster row was measured.").ToString();
        }

        var table = new MarkdownTable(
            "Row", "Tier", "Records", "One Put each (records/s)", "ms each", "PutMany (records/s)", "Batch",
            "Batched ÷ single", "Gets/s, own reads", "Gets/s, without a quorum");
        foreach (ClusterRequestsResult result in results)
        {
            table.Add(
                result.Row,
                result.Durability.ToString(),
                result.Records.ToString("N0", CultureInfo.InvariantCulture),
                result.SinglePerSecond.ToString("N0", CultureInfo.InvariantCulture),
                (1_000 / result.SinglePerSecond).ToString("0.00", CultureInfo.InvariantCulture),
                result.BatchedPerSecond.ToString("N0", CultureInfo.InvariantCulture),
                result.BatchSize.ToString(CultureInfo.InvariantCulture),
                result.BatchSpeedup.ToString("0.0", CultureInfo.InvariantCulture),
                result.ReadsPerSecond.ToString("N0", CultureInfo.InvariantCulture),
                result.RelaxedReadsPerSecond is { } relaxed ? relaxed.ToString("N0", CultureInfo.InvariantCulture) : "not offered");
        }

        table.WriteTo(markdown);
        string ownReads = string.Join(
            "; ", StoreCatalog.ServerRows.Where(row => row.ClusterReads is not null).Select(row => $"{row.Name}: {row.ClusterReads}"));
        string relaxedReads = string.Join(
            "; ", StoreCatalog.ServerRows.Where(row => row.ClusterRelaxedReads is not null).Select(row => $"{row.Name}: {row.ClusterRelaxedReads}"));
        markdown.Append("One client, one request after another, 128 B values, each record written again with other bytes by the ")
            .Append(CultureInfo.InvariantCulture, $"batches and read back after, with the row's own reads ({ownReads}) and without a quorum ")
            .Append(CultureInfo.InvariantCulture, $"({relaxedReads}). ")
            .AppendLine(
                "Published figures to set beside them, each on its own setup: etcd's " +
                "published benchmarks measured 583 writes a second at 1.6 ms for one client on three 8-vCPU members " +
                "(etcd 3.2) and 60 writes a second at a p90 of 21.4 ms on three 2-vCPU members (etcd 2.1); rqlite's " +
                "guide gives 10 to 200 single inserts a second on its Raft log and about 100 times that with " +
                "batches. Here the three members share one disk and two cores with the client.").AppendLine();
        return markdown.ToString();
    }

    private static string Latency(FaultPhaseLatency phase) =>
        phase.Operations == 0 ? "-" : string.Create(CultureInfo.InvariantCulture, $"{phase.P99Milliseconds:0.0} / {phase.MaxMilliseconds:0.0}");
}
