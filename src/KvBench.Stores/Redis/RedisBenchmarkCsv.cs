using System.Globalization;

using KvBench.Stores.Servers;

namespace KvBench.Stores.Redis;

/// <summary>
/// Reads what <c>redis-benchmark --csv</c> prints: a header line (<c>"test","rps","avg_latency_ms",...</c>), then one
/// line per test, every field quoted. Lines that do not start with a quote (anything the tool says on standard error)
/// are not part of the table.
/// </summary>
internal static class RedisBenchmarkCsv
{
    private const string Tool = "redis-benchmark";

    /// <summary>The requests per second of each of <paramref name="tests"/> (<c>SET</c>, <c>GET</c>) in <paramref name="output"/>.</summary>
    /// <exception cref="ServerBenchmarkException">
    /// No header, no <c>rps</c> column, a line that is not the header's shape, a rate that is not a positive number, or
    /// a test missing.
    /// </exception>
    public static IReadOnlyDictionary<string, double> RequestsPerSecond(string output, IReadOnlyList<string> tests)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(tests);
        string[] lines = [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Where(line => line.StartsWith('"'))];
        if (lines.Length == 0 || Fields(lines[0]) is not { } columns || columns.Length == 0 || columns[0] != "test")
        {
            throw new ServerBenchmarkException(Tool, $"its output has no CSV header (\"test\",\"rps\",...): {ServerCommand.LastLines(output, 3)}");
        }

        int rateColumn = Array.IndexOf(columns, "rps");
        if (rateColumn < 0)
        {
            throw new ServerBenchmarkException(Tool, $"its CSV header has no rps column: {lines[0]}");
        }

        var rates = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (string line in lines.Skip(1))
        {
            string[] fields = Fields(line) ?? throw new ServerBenchmarkException(Tool, $"a CSV line whose fields are not all quoted: {line}");
            if (fields.Length != columns.Length)
            {
                throw new ServerBenchmarkException(Tool, $"a CSV line of {fields.Length} fields under a header of {columns.Length}: {line}");
            }

            if (!double.TryParse(fields[rateColumn], NumberStyles.Float, CultureInfo.InvariantCulture, out double rate) || !double.IsFinite(rate) || rate <= 0)
            {
                throw new ServerBenchmarkException(Tool, $"'{fields[rateColumn]}' is not a positive rate of requests per second, in the line of {fields[0]}");
            }

            rates[fields[0]] = rate;
        }

        foreach (string test in tests.Where(test => !rates.ContainsKey(test)))
        {
            throw new ServerBenchmarkException(Tool, $"its CSV output has no line for {test}: {ServerCommand.LastLines(output, 3)}");
        }

        return rates;
    }

    /// <summary>
    /// The line's fields without their quotes, or <see langword="null"/> when one is not quoted (the tool quotes every
    /// field and none holds a comma).
    /// </summary>
    private static string[]? Fields(string line)
    {
        string[] fields = line.Split(',');
        return fields.All(field => field.Length >= 2 && field[0] == '"' && field[^1] == '"') ? [.. fields.Select(field => field[1..^1])] : null;
    }
}
