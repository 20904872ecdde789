using System.Text;

using KvBench.Evaluation.MultiProcess;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>
/// What a section's command prints when it runs the section, or one of its suites, alone, and what fails the command:
/// the command keeps only its options, its output and its exit code.
/// </summary>
/// <typeparam name="TResults">What was measured.</typeparam>
/// <param name="Markdown">The tables and notes, as the command prints them.</param>
/// <param name="Results">What was measured, as the command's JSON file holds it.</param>
/// <param name="Problems">One line for each result that fails the command; empty when none does.</param>
public sealed record RanAlone<TResults>(string Markdown, TResults Results, IReadOnlyList<string> Problems)
{
    /// <summary>
    /// <paramref name="tables"/>, then each of <paramref name="notes"/> as a paragraph of its own, with the failures among
    /// <paramref name="failures"/> as the problems.
    /// </summary>
    public static RanAlone<TResults> Of(
        IEnumerable<MarkdownTable> tables, TResults results, IEnumerable<string?> failures, IEnumerable<string>? notes = null)
    {
        ArgumentNullException.ThrowIfNull(tables);
        ArgumentNullException.ThrowIfNull(failures);
        var output = new StringBuilder();
        foreach (MarkdownTable table in tables)
        {
            table.WriteTo(output);
        }

        foreach (string note in notes ?? [])
        {
            output.AppendLine(note).AppendLine();
        }

        return new RanAlone<TResults>(output.ToString(), results, [.. failures.OfType<string>()]);
    }
}

/// <summary>What a kill-rounds command (<c>kvbench crash</c>) prints, and whether the rounds broke what the row promises.</summary>
/// <param name="Markdown">The table of the rounds.</param>
/// <param name="Result">The rounds.</param>
/// <param name="WritesLost">Whether the rounds lost or tore what the row's tier promises to keep, or a reopen failed.</param>
public sealed record KillRoundsAlone(string Markdown, CrashRoundsResult Result, bool WritesLost);
