using KvBench.Evaluation.MultiProcess;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.ServerKills;

/// <summary>The server kill rounds' table, which <c>kvbench crash --kill Server</c> prints too.</summary>
public static class ServerKillTable
{
    /// <summary>
    /// One line per server row and tier of server kill rounds: the server's setting, what was acknowledged and lost,
    /// how far back before the kill the lost writes went, what the setting promises, and the verdict.
    /// </summary>
    public static string ToMarkdown(IEnumerable<CrashRoundsResult> results)
    {
        var table = new MarkdownTable(
            "Row", "Tier", "Server setting", "Rounds", "Acknowledged", "Lost", "Lost writes acknowledged within",
            "The setting may lose", "Torn", "Reopen failures", "Verdict");
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
                CrashTable.ReopenFailures(result),
                ServerKillVerdict.Of(result));
        }

        return CrashTable.Written(table);
    }
}
