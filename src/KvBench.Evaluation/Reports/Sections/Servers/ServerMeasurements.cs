using KvBench.Core;


namespace KvBench.Evaluation.Reports.Sections.Servers;

/// <summary>The loopback round trip of one server row, through the row's own client.</summary>
/// <param name="Row">The server row.</param>
/// <param name="Engine">The row's client package and server version.</param>
/// <param name="Replication">How the row's data is replicated (<see cref="Stores.Servers.ServerRow.Replication"/>).</param>
/// <param name="Endpoint">The server's endpoint.</param>
/// <param name="Request">What each round trip sent (<c>PING</c>, <c>SELECT 1</c>).</param>
/// <param name="Count">Round trips timed.</param>
/// <param name="MedianNanoseconds">Their median.</param>
/// <param name="P99Nanoseconds">Their 99th percentile.</param>
public sealed record ServerRoundTrip(
    string Row, string Engine, string Replication, string Endpoint, string Request, int Count, double MedianNanoseconds,
    double P99Nanoseconds);

/// <summary>A server row's Puts and Gets beside its server's own benchmark tool, at one tier and client count.</summary>
/// <param name="Row">The server row.</param>
/// <param name="Durability">The tier of both.</param>
/// <param name="Tool">The tool.</param>
/// <param name="Clients">The row's threads and the tool's connections.</param>
/// <param name="RowPutsPerSecond">The row's write-only run of the thread sweep.</param>
/// <param name="ToolPutsPerSecond">The tool's writes.</param>
/// <param name="RowGetsPerSecond">The row's read-only run of the thread sweep.</param>
/// <param name="ToolGetsPerSecond">The tool's reads.</param>
/// <param name="Commands">The tool's command lines.</param>
public sealed record OwnBenchmarkComparison(
    string Row, Durability Durability, string Tool, int Clients, double RowPutsPerSecond, double ToolPutsPerSecond,
    double RowGetsPerSecond, double ToolGetsPerSecond, IReadOnlyList<string> Commands)
{
    /// <summary>The row's Puts per second over the tool's: below 1, the row is slower.</summary>
    public double PutRatio => RowPutsPerSecond / ToolPutsPerSecond;

    /// <summary>The row's Gets per second over the tool's.</summary>
    public double GetRatio => RowGetsPerSecond / ToolGetsPerSecond;
}
