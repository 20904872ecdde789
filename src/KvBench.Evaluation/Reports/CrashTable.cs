using System.Text;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Reports;

/// <summary>The durability table: crash rounds per row and tier.</summary>
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
                result.ReopenFailures.Count == 0 ? "0" : $"{result.ReopenFailures.Count}: {result.ReopenFailures[0]}");
        }

        var output = new StringBuilder();
        table.WriteTo(output);
        return output.ToString();
    }
}
