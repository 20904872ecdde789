using System.Text.Json.Serialization;

namespace KvBench.Evaluation.Reports;

/// <summary>
/// One table of a BenchmarkDotNet GitHub-markdown report (<c>*-report-github.md</c>), read back by column name so
/// the ADR can print the columns it needs in the order decision records use.
/// </summary>
public sealed class BenchmarkReport
{
    /// <summary>What <see cref="Parse"/> read, or a results file holds (<see cref="Results.RunResults"/>).</summary>
    [JsonConstructor]
    private BenchmarkReport(string path, IReadOnlyList<string> headers, IReadOnlyList<string[]> rows, DateTime writtenUtc)
    {
        Path = path;
        Headers = headers;
        Rows = rows;
        WrittenUtc = writtenUtc;
    }

    /// <summary>The report file.</summary>
    public string Path { get; }

    /// <summary>The column names, as BenchmarkDotNet wrote them.</summary>
    public IReadOnlyList<string> Headers { get; }

    /// <summary>The rows, one cell per header, with BenchmarkDotNet's bold markers and padding removed.</summary>
    public IReadOnlyList<string[]> Rows { get; }

    /// <summary>When the report was written.</summary>
    public DateTime WrittenUtc { get; }

    /// <summary>
    /// The newest report under <paramref name="resultsDirectory"/> whose file name contains
    /// <paramref name="benchmarkClass"/>, or <see langword="null"/>.
    /// </summary>
    public static BenchmarkReport? FindLatest(string resultsDirectory, string benchmarkClass)
    {
        if (!Directory.Exists(resultsDirectory))
        {
            return null;
        }

        FileInfo? newest = new DirectoryInfo(resultsDirectory)
            .EnumerateFiles("*-report-github.md")
            .Where(file => file.Name.Contains(benchmarkClass, StringComparison.Ordinal))
            .MaxBy(file => file.LastWriteTimeUtc);
        return newest is null ? null : Parse(newest.FullName, File.ReadAllLines(newest.FullName), newest.LastWriteTimeUtc);
    }

    /// <summary>Reads the first markdown table in <paramref name="lines"/>.</summary>
    public static BenchmarkReport Parse(string path, IReadOnlyList<string> lines, DateTime writtenUtc)
    {
        ArgumentNullException.ThrowIfNull(lines);
        int header = -1;
        for (int i = 0; i + 1 < lines.Count; i++)
        {
            if (lines[i].TrimStart().StartsWith('|') && lines[i + 1].Contains("---", StringComparison.Ordinal))
            {
                header = i;
                break;
            }
        }

        if (header < 0)
        {
            throw new InvalidDataException($"'{path}' holds no markdown table.");
        }

        string[] headers = Cells(lines[header]);
        var rows = new List<string[]>();
        for (int i = header + 2; i < lines.Count && lines[i].TrimStart().StartsWith('|'); i++)
        {
            string[] cells = Cells(lines[i]);
            if (cells.Length == headers.Length)
            {
                rows.Add(cells);
            }
        }

        return new BenchmarkReport(path, headers, rows, writtenUtc);
    }

    /// <summary>
    /// A table of <paramref name="columns"/> in that order. BenchmarkDotNet drops a garbage-collection or allocation
    /// column when every value in it is zero; such a column is kept here with "-" in every cell, which is how
    /// BenchmarkDotNet writes zero, so every report has the same shape. Any other column the report lacks is left out.
    /// Rows are kept in the report's order.
    /// </summary>
    public MarkdownTable Select(IReadOnlyList<string> columns)
    {
        ArgumentNullException.ThrowIfNull(columns);
        var selected = new List<(string Header, int Index)>();
        foreach (string column in columns)
        {
            int index = IndexOf(column);
            if (index >= 0 || s_zeroWhenAbsent.Contains(column))
            {
                selected.Add((index >= 0 ? Headers[index] : column, index));
            }
        }

        var table = new MarkdownTable([.. selected.Select(column => column.Header)]);
        foreach (string[] row in Rows)
        {
            table.Add([.. selected.Select(column => column.Index >= 0 ? row[column.Index] : "-")]);
        }

        return table;
    }

    /// <summary>The cell of <paramref name="row"/> under <paramref name="column"/>, or <see langword="null"/> when the report has no such column.</summary>
    public string? Cell(IReadOnlyList<string> row, string column)
    {
        ArgumentNullException.ThrowIfNull(row);
        int index = IndexOf(column);
        return index >= 0 ? row[index] : null;
    }

    private int IndexOf(string column) => Array.FindIndex([.. Headers], header => string.Equals(header, column, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// A BenchmarkDotNet time cell ("15,261.24 ns", "688.998 μs", "1.2 ms") in nanoseconds, or <see langword="null"/> for
    /// a cell that holds no time ("NA", "-").
    /// </summary>
    public static double? Nanoseconds(string cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        string[] parts = cell.Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return parts.Length == 2
            && double.TryParse(
                parts[0],
                System.Globalization.NumberStyles.Number,
                System.Globalization.CultureInfo.InvariantCulture,
                out double value)
            ? value * Charts.TimeUnit.Parse(parts[1]).Nanoseconds
            : null;
    }

    private static readonly HashSet<string> s_zeroWhenAbsent = new(StringComparer.OrdinalIgnoreCase) { "Gen0", "Gen1", "Gen2", "Allocated" };

    private static string[] Cells(string line) =>
        [.. line.Trim().Trim('|').Split('|').Select(cell => cell.Replace("**", string.Empty, StringComparison.Ordinal).Trim())];
}
