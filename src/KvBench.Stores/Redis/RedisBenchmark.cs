using System.Diagnostics;
using System.Globalization;

using KvBench.Stores.Servers;

using StackExchange.Redis;

namespace KvBench.Stores.Redis;

/// <summary>
/// Debian's <c>redis-benchmark</c> (package redis-tools, installed when first needed) against a Redis server: plain SET
/// and GET, no pipelining, over a keyspace loaded beforehand so that every GET finds a value of the run's size (a GET of a
/// missing key answers nil, which costs the server less than a value).
/// </summary>
internal sealed class RedisBenchmark : ServerBenchmark
{
    private const string Program = "/usr/bin/redis-benchmark";

    private const string Package = "redis-tools";

    /// <summary>Keys per MSET while loading: one round trip and, at appendfsync always, one flush each.</summary>
    private const int LoadBatch = 1000;

    private static readonly string[] s_tests = ["SET", "GET"];

    public override string Tool => "redis-benchmark";

    public override string Method =>
        "plain SET and GET (`-t set,get`, no pipelining: `-P 1`) of `key:<12 digits>` keys drawn uniformly from the " +
            "keyspace (`-r`), all loaded beforehand with values of the run's size (`-d`), one connection per client " +
            "(`-c`), a fixed count of requests each (`-n`); the Redis row writes each value and its key's entry in " +
            "the sorted set that keeps its scans ordered in one MULTI/EXEC, where SET writes the value alone";

    private protected override async Task<ServerBenchmarkResult> RunCoreAsync(HostPort server, ServerBenchmarkRun run, CancellationToken cancellationToken)
    {
        await DebianPackages.EnsureInstalledAsync(RedisRow.RowName, Package).WaitAsync(cancellationToken).ConfigureAwait(false);
        await LoadAsync(server, run).ConfigureAwait(false);
        var startInfo = new ProcessStartInfo(Program,
        [
            "-h", server.Host, "-p", Number(server.Port), "-t", "set,get", "-d", Number(run.ValueBytes), "-c", Number(run.Clients),
            "-P", "1", "-n", Number(run.Requests), "-r", Number(run.Records), "--csv",
        ]);
        string output = await Task.Run(() => RunTool(startInfo), cancellationToken).ConfigureAwait(false);
        IReadOnlyDictionary<string, double> rates = RedisBenchmarkCsv.RequestsPerSecond(output, s_tests);
        return new ServerBenchmarkResult([$"{Tool} {string.Join(' ', startInfo.ArgumentList)}"], PutsPerSecond: rates["SET"], GetsPerSecond: rates["GET"]);
    }

    /// <summary>Writes every key of the keyspace, named as redis-benchmark's <c>-r</c> names them (<c>key:</c> and the index in 12 digits).</summary>
    private static async Task LoadAsync(HostPort server, ServerBenchmarkRun run)
    {
        using ConnectionMultiplexer connection = RedisStore.Connect($"{server.Host}:{Number(server.Port)}");
        IDatabase database = connection.GetDatabase();
        byte[] value = new byte[run.ValueBytes];
        Array.Fill(value, (byte)'x');
        for (long first = 0; first < run.Records; first += LoadBatch)
        {
            KeyValuePair<RedisKey, RedisValue>[] batch = [.. Enumerable.Range(0, (int)Math.Min(LoadBatch, run.Records - first))
                .Select(offset => new KeyValuePair<RedisKey, RedisValue>("key:" + (first + offset).ToString("D12", CultureInfo.InvariantCulture), value))];
            await database.StringSetAsync(batch).ConfigureAwait(false);
        }
    }

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);
}
