using System.Text;

using KvBench.Evaluation.MultiProcess;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports;

/// <summary>The durability tables: crash rounds per row and tier, with the writer killed or its server.</summary>
public static class CrashTable
{
    /// <summary>One line per row and tier: rounds, acknowledged records, and what of them was lost.</summary>
    public static string ToMarkdown(IEnumerable<CrashRoundsResult> results)
    {
        var table = new MarkdownTable("Row", "Tier", "Rounds", "Acknowledged", "Lost", "Torn", "Reopen failures");
        foreach (CrashRoundsResult result in results)
        {
            table.Add(
                result.Store,
                result.Durability.ToString(),
                $"{result.Rounds:N0}",
                $"{result.Acknowledged:N0}",
                $"{result.Lost:N0}",
                $"{result.Torn:N0}",
                ReopenFailures(result));
        }

        return Written(table);
    }

    /// <summary>
    /// One line per server row and tier of server kill rounds: the server's setting, what was acknowledged and lost,
    /// how far back before the kill the lost writes went, what the setting promises, and the verdict.
    /// </summary>
    public static string ServerKillsToMarkdown(IEnumerable<CrashRoundsResult> results)
    {
        var table = new MarkdownTable("Row", "Tier", "Server setting", "Rounds", "Acknowledged", "Lost", "Lost writes acknowledged within", "The setting may lose", "Torn", "Reopen failures", "Verdict");
        foreach (CrashRoundsResult result in results)
        {
            ServerTierPromise promise = ServerKillVerdict.PromiseOf(result);
            table.Add(
                result.Store,
                result.Durability.ToString(),
                $"`{promise.Setting}`",
                $"{result.Rounds:N0}",
                $"{result.Acknowledged:N0}",
                $"{result.Lost:N0}",
                result.Lost == 0 ? "-" : $"{ServerKillVerdict.Milliseconds(result.LostSpan)} before the kill",
                promise.MayLose == TimeSpan.Zero ? "nothing acknowledged" : $"up to {ServerKillVerdict.Milliseconds(promise.MayLose)}",
                $"{result.Torn:N0}",
                ReopenFailures(result),
                ServerKillVerdict.Of(result));
        }

        return Written(table);
    }

    private static string ReopenFailures(CrashRoundsResult result) =>
        result.ReopenFailures.Count == 0 ? "0" : $"{result.ReopenFailures.Count}: {result.ReopenFailures[0]}";

    private static string Written(MarkdownTable table)
    {
        var output = new StringBuilder();
        table.WriteTo(output);
        return output.ToString();
    }
}
