using System.Diagnostics;
using System.Text;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>What a cluster row's requests cost, one client, one request after another, all in one run.</summary>
/// <param name="Row">The cluster row.</param>
/// <param name="Durability">The tier the writes were acknowledged at.</param>
/// <param name="Records">Records written each way, and reads each way.</param>
/// <param name="BatchSize">Records per <c>PutMany</c>.</param>
/// <param name="SinglePerSecond">Records per second, one <c>Put</c> each.</param>
/// <param name="BatchedPerSecond">Records per second through <c>PutMany</c> of <paramref name="BatchSize"/>.</param>
/// <param name="ReadsPerSecond">Gets per second with the row's own reads (etcd's linearizable).</param>
/// <param name="RelaxedReadsPerSecond">
/// Gets per second without a quorum (etcd's serializable), or <see langword="null"/> for a row that offers no such
/// reads.
/// </param>
public sealed record ClusterRequestsResult(
    string Row, Durability Durability, int Records, int BatchSize, double SinglePerSecond, double BatchedPerSecond,
    double ReadsPerSecond, double? RelaxedReadsPerSecond)
{
    /// <summary>How many times as many records a second batches wrote.</summary>
    public double BatchSpeedup => BatchedPerSecond / SinglePerSecond;
}

/// <summary>
/// What batching and relaxed reads buy on a replicated row, where every acknowledged write waits for a majority's synced
/// commit and every read of the row's own asks the leader: the same records written one <c>Put</c> at a time and
/// through <c>PutMany</c> (each record's bytes changed by the second pass), then read back with the row's own reads and,
/// where it offers them, reads without a quorum, on a cluster of KvBench's own.
/// </summary>
public static class ClusterRequests
{
    /// <summary>Measures <paramref name="rowName"/> on a new cluster, stopped and deleted afterwards.</summary>
    /// <exception cref="InvalidDataException">A record read back did not hold what was written last.</exception>
    public static async Task<ClusterRequestsResult> RunAsync(
        string rowName, int records = 500, int batchSize = 100, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(records, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        await using PrivateServer cluster = await PrivateServer.StartClusterAsync(rowName, cancellationToken).ConfigureAwait(false);
        string directory = Path.Combine(Path.GetTempPath(), "kvbench-cluster-requests-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            var options = new ServerStoreOptions { Directory = directory, Durability = cluster.Durability, Endpoint = cluster.Endpoint };
            byte[][] keys = [.. Enumerable.Range(0, records).Select(index => Encoding.ASCII.GetBytes($"requests:{index:D6}"))];
            double single, batched, reads;
            using (IKeyValueStore store = StoreCatalog.Open(cluster.Row.Name, options))
            {
                single = PerSecond(records, () => Array.ForEach(keys, key => store.Put(key, Value(key, pass: 1))));
                batched = PerSecond(records, () =>
                {
                    foreach (byte[][] batch in keys.Chunk(batchSize))
                    {
                        store.PutMany([.. batch.Select(key => new KeyValuePair<byte[], byte[]>(key, Value(key, pass: 2)))]);
                    }
                });
                reads = PerSecond(records, () => ReadBack(store, keys, cluster.Row.Name));
            }

            double? relaxed = null;
            if (cluster.Row.WithRelaxedReads(options) is { } relaxedOptions)
            {
                using IKeyValueStore store = StoreCatalog.Open(cluster.Row.Name, relaxedOptions);
                relaxed = PerSecond(records, () => ReadBack(store, keys, cluster.Row.Name));
            }

            return new ClusterRequestsResult(cluster.Row.Name, cluster.Durability, records, batchSize, single, batched, reads, relaxed);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>Reads every record, failing unless each holds the batch written last.</summary>
    private static void ReadBack(IKeyValueStore store, byte[][] keys, string row)
    {
        int wrong = keys.Count(key => store.Get(key) is not { } value || !value.AsSpan().SequenceEqual(Value(key, pass: 2)));
        if (wrong > 0)
        {
            throw new InvalidDataException($"{row}: {wrong} of {keys.Length} records did not hold the batch written last.");
        }
    }

    private static double PerSecond(int count, Action requests)
    {
        long start = Stopwatch.GetTimestamp();
        requests();
        return count / Stopwatch.GetElapsedTime(start).TotalSeconds;
    }

    private static byte[] Value(byte[] key, int pass) => [.. key, .. Enumerable.Repeat((byte)pass, 128 - key.Length)];
}
