using System.Text;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// The crash rounds' table, one line per row and tier: the crash section prints it for writer kills, and the power-loss
/// section for power cuts.
/// </summary>
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

    /// <summary>"0", or how many reopens failed and the first one's error.</summary>
    internal static string ReopenFailures(CrashRoundsResult result) =>
        result.ReopenFailures.Count == 0 ? "0" : $"{result.ReopenFailures.Count}: {result.ReopenFailures[0]}";

    /// <summary><paramref name="table"/> as markdown text.</summary>
    internal static string Written(MarkdownTable table)
    {
        var output = new StringBuilder();
        table.WriteTo(output);
        return output.ToString();
    }
}
