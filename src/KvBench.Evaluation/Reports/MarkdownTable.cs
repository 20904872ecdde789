using System.Text;

namespace KvBench.Evaluation.Reports;

/// <summary>A GitHub-flavoured markdown table, in the <c>a | b |</c> / <c>---|---|</c> shape decision records use.</summary>
public sealed class MarkdownTable
{
    private readonly string[] _headers;
    private readonly List<string[]> _rows = [];

    /// <summary>Creates a table with <paramref name="headers"/>.</summary>
    public MarkdownTable(params string[] headers) => _headers = headers;

    /// <summary>How many rows were added.</summary>
    public int RowCount => _rows.Count;

    /// <summary>Adds a row of exactly as many cells as there are headers.</summary>
    public MarkdownTable Add(params string[] cells)
    {
        if (cells.Length != _headers.Length)
        {
            throw new ArgumentException($"A row needs {_headers.Length} cells; {cells.Length} were given.", nameof(cells));
        }

        _rows.Add(cells);
        return this;
    }

    /// <summary>Writes the table, ending with a blank line.</summary>
    public void WriteTo(StringBuilder output)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.Append(string.Join(" | ", _headers.Select(Escape))).AppendLine(" |");
        output.Append(string.Concat(Enumerable.Repeat("---|", _headers.Length))).AppendLine();
        foreach (string[] row in _rows)
        {
            output.Append(string.Join(" | ", row.Select(Escape))).AppendLine(" |");
        }

        output.AppendLine();
    }

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
