using System.Globalization;



namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>The server section's own tables: what the loopback adds to a call, and each row beside its server's own benchmark.</summary>
public static class ServerTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>One line per server row: what it is made of, where its server is, and the round trip's median and p99.</summary>
    public static MarkdownTable RoundTrips(IEnumerable<ServerRoundTrip> roundTrips)
    {
        ArgumentNullException.ThrowIfNull(roundTrips);
        var table = new MarkdownTable("Row", "Client and server", "Replication", "Server at", "Request", "Round trips", "p50", "p99");
        foreach (ServerRoundTrip roundTrip in roundTrips)
        {
            table.Add(
                roundTrip.Row,
                roundTrip.Engine,
                roundTrip.Replication,
                roundTrip.Endpoint,
                roundTrip.Request,
                roundTrip.Count.ToString("N0", s_numbers),
                WorkloadCells.Latency(roundTrip.MedianNanoseconds),
                WorkloadCells.Latency(roundTrip.P99Nanoseconds));
        }

        return table;
    }

    /// <summary>One line per server row, tool, client count and operation: both rates and the row's over the tool's.</summary>
    public static MarkdownTable OwnBenchmarks(IEnumerable<OwnBenchmarkComparison> comparisons)
    {
        ArgumentNullException.ThrowIfNull(comparisons);
        var table = new MarkdownTable("Row", "Tool", "Clients", "Operation", "Row (ops/s)", "Tool (ops/s)", "Row ÷ tool");
        foreach (OwnBenchmarkComparison comparison in comparisons)
        {
            string clients = comparison.Clients.ToString(s_numbers);
            table.Add(
                comparison.Row, comparison.Tool, clients, "Put", Rate(comparison.RowPutsPerSecond),
                Rate(comparison.ToolPutsPerSecond), Ratio(comparison.PutRatio));
            table.Add(
                comparison.Row, comparison.Tool, clients, "Get", Rate(comparison.RowGetsPerSecond),
                Rate(comparison.ToolGetsPerSecond), Ratio(comparison.GetRatio));
        }

        return table;
    }

    /// <summary>One line per thread count and operation: Garnet's rate, FASTER's, and their ratio.</summary>
    public static MarkdownTable Lineage(IEnumerable<LineageComparison> comparisons)
    {
        ArgumentNullException.ThrowIfNull(comparisons);
        var table = new MarkdownTable(
            "Threads",
            "Operation",
            $"{LineageComparison.ServerRow} (ops/s)",
            $"{LineageComparison.InProcessRow} (ops/s)",
            $"{LineageComparison.ServerRow} ÷ {LineageComparison.InProcessRow}");
        foreach (LineageComparison comparison in comparisons)
        {
            table.Add(
                comparison.Threads.ToString(s_numbers), comparison.Operation, Rate(comparison.ServerPerSecond),
                Rate(comparison.InProcessPerSecond), Ratio(comparison.Ratio));
        }

        return table;
    }

    private static string Rate(double perSecond) => perSecond.ToString("N0", s_numbers);

    private static string Ratio(double ratio) => ratio.ToString(ratio >= 0.1 ? "0.00" : "0.000", s_numbers);
}
