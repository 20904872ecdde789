using System.Diagnostics;
using System.Text;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Servers;

/// <summary>Single writes against batched ones on one cluster row, in one run.</summary>
/// <param name="Row">The cluster row.</param>
/// <param name="Durability">The tier both were acknowledged at.</param>
/// <param name="Records">Records written each way.</param>
/// <param name="BatchSize">Records per <c>PutMany</c>.</param>
/// <param name="SinglePerSecond">Records per second, one <c>Put</c> each, one after another.</param>
/// <param name="BatchedPerSecond">Records per second through <c>PutMany</c> of <paramref name="BatchSize"/>.</param>
public sealed record ClusterBatchingResult(string Row, Durability Durability, int Records, int BatchSize, double SinglePerSecond, double BatchedPerSecond)
{
    /// <summary>How many times as many records a second batches wrote.</summary>
    public double Speedup => BatchedPerSecond / SinglePerSecond;
}

/// <summary>
/// What batching buys on a replicated row, where every acknowledged write waits for a majority's synced commit: the same
/// records written one <c>Put</c> at a time and through <c>PutMany</c>, each record's bytes changed by the second pass,
/// on a cluster of KvBench's own, then read back.
/// </summary>
public static class ClusterBatching
{
    /// <summary>Measures <paramref name="rowName"/> on a new cluster, stopped and deleted afterwards.</summary>
    /// <exception cref="InvalidDataException">A record read back did not hold what was written last.</exception>
    public static async Task<ClusterBatchingResult> RunAsync(string rowName, int records = 500, int batchSize = 100, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(records, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        await using PrivateCluster cluster = await PrivateCluster.StartAsync(rowName, cancellationToken).ConfigureAwait(false);
        string directory = Path.Combine(Path.GetTempPath(), "kvbench-cluster-batching-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            using IKeyValueStore store = StoreCatalog.Open(cluster.Row.Name, new ServerStoreOptions { Directory = directory, Durability = cluster.Durability, Endpoint = cluster.Endpoint });
            byte[][] keys = [.. Enumerable.Range(0, records).Select(index => Encoding.ASCII.GetBytes($"batching:{index:D6}"))];

            long start = Stopwatch.GetTimestamp();
            foreach (byte[] key in keys)
            {
                store.Put(key, Value(key, pass: 1));
            }

            TimeSpan single = Stopwatch.GetElapsedTime(start);
            start = Stopwatch.GetTimestamp();
            foreach (byte[][] batch in keys.Chunk(batchSize))
            {
                store.PutMany([.. batch.Select(key => new KeyValuePair<byte[], byte[]>(key, Value(key, pass: 2)))]);
            }

            TimeSpan batched = Stopwatch.GetElapsedTime(start);
            int wrong = keys.Count(key => store.Get(key) is not { } value || !value.AsSpan().SequenceEqual(Value(key, pass: 2)));
            return wrong == 0
                ? new ClusterBatchingResult(cluster.Row.Name, cluster.Durability, records, batchSize, records / single.TotalSeconds, records / batched.TotalSeconds)
                : throw new InvalidDataException($"{cluster.Row.Name}: {wrong} of {records} records did not hold the batch written last.");
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static byte[] Value(byte[] key, int pass) => [.. key, .. Enumerable.Repeat((byte)pass, 128 - key.Length)];
}
