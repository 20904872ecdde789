using KvBench.Core;
using KvBench.Evaluation.Reports.Sections.Servers;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Tests.Stores.Conformance;


namespace KvBench.Tests.Evaluation.Reports.Sections.Servers;

/// <summary>Each server's own benchmark tool and the loopback round trip, run for real against KvBench's servers.</summary>
[Trait("Category", "Servers")]
public sealed class OwnBenchmarkTests : IClassFixture<ServerHostsFixture>
{
    /// <summary>The server rows available here whose server has a benchmark tool of its own.</summary>
    public static TheoryData<string> RowsWithTools =>
        new(StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.OwnBenchmark is not null).Select(row => row.Name));

    [Theory]
    [MemberData(nameof(RowsWithTools))]
    public async Task A_servers_own_benchmark_runs_against_kvbenchs_server_and_reports_a_rate_for_writes_and_for_reads(string name)
    {
        var row = (ServerRow)StoreCatalog.Row(name);
        string endpoint = Assert.IsType<string>(row.EndpointFor(Durability.Buffered));

        ServerBenchmarkResult result = await row.OwnBenchmark!.RunAsync(
            endpoint,
            new ServerBenchmarkRun { ValueBytes = 128, Clients = 2, Records = 200, Requests = 1_000 });

        Assert.True(result.PutsPerSecond > 0 && result.GetsPerSecond > 0, $"{result.PutsPerSecond} puts/s, {result.GetsPerSecond} gets/s");
        Assert.Contains(result.Commands, command =>
            command.StartsWith(row.OwnBenchmark.Tool, StringComparison.Ordinal)
                || command.Contains($" {row.OwnBenchmark.Tool} ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_tool_asked_to_run_against_what_is_not_host_and_port_or_with_no_clients_is_an_argument_error()
    {
        ServerBenchmark tool = Assert.IsType<ServerBenchmark>(
            StoreCatalog.ServerRows.Select(row => row.OwnBenchmark).FirstOrDefault(benchmark => benchmark is not null),
            exactMatch: false);
        var run = new ServerBenchmarkRun { ValueBytes = 128, Clients = 1, Records = 10 };

        await Assert.ThrowsAsync<ArgumentException>(() => tool.RunAsync("Host=127.0.0.1;Port=1", run));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => tool.RunAsync("127.0.0.1:1", run with { Clients = 0 }));
    }

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void The_loopback_round_trip_is_timed_through_the_rows_own_client(string name)
    {
        var row = (ServerRow)StoreCatalog.Row(name);

        ServerRoundTrip roundTrip = RoundTripTimer.Measure(row, Assert.IsType<string>(row.EndpointFor(Durability.Buffered)), count: 50);

        Assert.Equal(name, roundTrip.Row);
        Assert.Equal(50, roundTrip.Count);
        Assert.NotEmpty(roundTrip.Request);
        Assert.True(
            roundTrip.MedianNanoseconds > 0 && roundTrip.P99Nanoseconds >= roundTrip.MedianNanoseconds,
            $"p50 {roundTrip.MedianNanoseconds} ns, p99 {roundTrip.P99Nanoseconds} ns");
    }
}
