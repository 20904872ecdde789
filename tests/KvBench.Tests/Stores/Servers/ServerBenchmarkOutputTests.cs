using KvBench.Stores.PostgreSql;
using KvBench.Stores.Redis;
using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Servers;

/// <summary>The servers' own benchmark tools' reports, as captured from the tools here, read; anything else is a typed error.</summary>
public sealed class ServerBenchmarkOutputTests
{
    /// <summary>What redis-benchmark 7.0.15 printed here for <c>-t set,get -d 128 -c 4 -P 1 -n 20000 -r 50000 --csv</c>.</summary>
    private const string RedisCsv = """
        "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        "SET","21097.05","0.132","0.024","0.103","0.295","0.447","5.551"
        "GET","20639.84","0.123","0.024","0.111","0.231","0.351","5.623"

        """;

    private static readonly string[] s_tests = ["SET", "GET"];

    [Fact]
    public void Redis_benchmark_csv_gives_each_tests_requests_per_second()
    {
        IReadOnlyDictionary<string, double> rates = RedisBenchmarkCsv.RequestsPerSecond(RedisCsv, s_tests);

        Assert.Equal(21097.05, rates["SET"]);
        Assert.Equal(20639.84, rates["GET"]);
    }

    [Fact]
    public void Redis_benchmark_csv_ignores_what_the_tool_says_besides_its_table()
    {
        IReadOnlyDictionary<string, double> rates = RedisBenchmarkCsv.RequestsPerSecond(
            "WARNING: could not fetch server CONFIG\n" + RedisCsv + "done\n",
            s_tests);

        Assert.Equal(2, rates.Count);
    }

    [Theory]
    [InlineData("", "no CSV header")]
    [InlineData("SET: 21097.05 requests per second\n", "no CSV header")]
    [InlineData("\"test\",\"avg_latency_ms\"\n\"SET\",\"0.1\"\n\"GET\",\"0.1\"\n", "no rps column")]
    [InlineData("\"test\",\"rps\"\n\"SET\",\"fast\"\n\"GET\",\"1\"\n", "'fast' is not a positive rate")]
    [InlineData("\"test\",\"rps\"\n\"SET\",\"0\"\n\"GET\",\"1\"\n", "'0' is not a positive rate")]
    [InlineData("\"test\",\"rps\"\n\"SET\",\"10\",\"3\"\n\"GET\",\"1\"\n", "a CSV line of 3 fields under a header of 2")]
    [InlineData("\"test\",\"rps\"\n\"SET\",10\n\"GET\",\"1\"\n", "fields are not all quoted")]
    [InlineData("\"test\",\"rps\"\n\"SET\",\"10\"\n", "no line for GET")]
    public void Redis_benchmark_output_that_is_not_its_csv_table_is_a_server_benchmark_error_saying_what_is_wrong(string output, string problem)
    {
        ServerBenchmarkException error = Assert.Throws<ServerBenchmarkException>(() => RedisBenchmarkCsv.RequestsPerSecond(output, s_tests));

        Assert.Equal("redis-benchmark", error.Tool);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
    }

    /// <summary>What pgbench 15.18 printed here for <c>-n -M prepared -c 2 -j 2 -T 1 -f get.sql</c>, the point-read script.</summary>
    private const string PgBenchOutput = """
        pgbench (15.18 (Debian 15.18-0+deb12u1))
        transaction type: get.sql
        scaling factor: 1
        query mode: prepared
        number of clients: 2
        number of threads: 2
        maximum number of tries: 1
        duration: 1 s
        number of transactions actually processed: 33992
        number of failed transactions: 0 (0.000%)
        latency average = 0.057 ms
        initial connection time = 39.445 ms
        tps = 35323.850458 (without initial connection time)

        """;

    [Fact]
    public void Pgbench_output_gives_its_transactions_per_second_without_the_connection_time()
    {
        Assert.Equal(35323.850458, PgBench.TransactionsPerSecond(PgBenchOutput));
    }

    [Theory]
    [InlineData("", "no positive \"tps = ")]
    [InlineData("tps = 10515.378404 (including connections establishing)\n", "no positive \"tps = ")]
    [InlineData("tps = -3 (without initial connection time)\n", "no positive \"tps = ")]
    [InlineData("number of failed transactions: 12 (0.114%)\ntps = 10515.378404 (without initial connection time)\n", "number of failed transactions: 12")]
    public void Pgbench_output_without_a_rate_or_with_failed_transactions_is_a_server_benchmark_error(string output, string problem)
    {
        ServerBenchmarkException error = Assert.Throws<ServerBenchmarkException>(() => PgBench.TransactionsPerSecond(output));

        Assert.Equal("pgbench", error.Tool);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
    }
}
