using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>
/// A member of a cluster row faulted under load, as etcd's own robustness tests fault one, or a row's one server faulted
/// under the same load to show what a replica changes: a cluster or server (<see cref="PrivateServer"/>)
/// of KvBench's own takes YCSB workload A's mix through the row's adapter at a fixed rate, open loop, so
/// a stall shows as the latency of every operation that was due during it (each timed from when it was due, not from
/// when the stalled one before it let it go); in its middle the leader or a follower is killed with SIGKILL (and started
/// again on its data) or paused with SIGSTOP (and resumed). Every update writes the next version of its key, so
/// a read that returns an older version than one acknowledged before it was sent is stale, and a key that holds an
/// older version after the run lost an acknowledged write.
/// </summary>
public static partial class ClusterFault
{
    /// <summary>How long the cluster has after the run to elect a leader and answer the read-back.</summary>
    private static readonly TimeSpan s_settleTimeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Runs one fault on a new cluster of <paramref name="rowName"/>'s, or on a new server of its own for a row of one
    /// server (whose one member is its leader, and which has no follower), stopped and deleted afterwards.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="rowName"/> is no server row.</exception>
    /// <exception cref="NotSupportedException">A follower was asked of a row of one server.</exception>
    /// <exception cref="StoreUnavailableException">Its server cannot be had here, or did not start.</exception>
    public static async Task<ClusterFaultResult> RunAsync(string rowName, ClusterFaultSettings settings, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(settings);
        settings.Validate();
        ServerRow row = StoreCatalog.ServerRowNamed(rowName);
        if (row.IsOneProcess && settings.Target == FaultTarget.Follower)
        {
            throw new NotSupportedException($"{row.Name} runs one server, which has no follower: fault its leader, the server itself.");
        }

        // A single server at Synced where it offers it: what a replica adds is set beside a server that syncs too.
        await using IFaultableServer server = row.IsOneProcess
            ? await PrivateServer.StartAsync(
                row.Name,
                row.OpensAt(Durability.Synced) ? Durability.Synced : Durability.Buffered,
                cancellationToken: cancellationToken).ConfigureAwait(false)
            : await PrivateServer.StartClusterAsync(row.Name, cancellationToken).ConfigureAwait(false);
        string directory = Path.Combine(Path.GetTempPath(), "kvbench-cluster-fault-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            var options = new ServerStoreOptions { Directory = directory, Durability = server.Durability, Endpoint = server.Endpoint };
            if (settings.RelaxedReads)
            {
                options = row.WithRelaxedReads(options)
                    ?? throw new NotSupportedException($"{row.Name} offers no reads without a quorum; its reads are always its own.");
            }

            using IKeyValueStore store = StoreCatalog.Open(row.Name, options);
            return await RunAsync(server, store, settings, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>Runs one fault on <paramref name="cluster"/> through <paramref name="store"/>, opened on it by the caller.</summary>
    internal static async Task<ClusterFaultResult> RunAsync(
        IFaultableServer cluster, IKeyValueStore store, ClusterFaultSettings settings,
        CancellationToken cancellationToken)
    {
        byte[][] keys = [.. Enumerable.Range(0, settings.Records).Select(index => Encoding.ASCII.GetBytes($"fault:{index:D6}"))];
        store.PutMany([.. keys.Select(key => new KeyValuePair<byte[], byte[]>(key, Value(0, settings.ValueBytes)))]);
        long[] acknowledged = new long[keys.Length];
        long[] attempted = new long[keys.Length];

        int leader = await cluster.LeaderAsync(cancellationToken).ConfigureAwait(false);
        int member = settings.Target == FaultTarget.Leader ? leader : (leader + 1) % cluster.MemberCount;
        long start = Stopwatch.GetTimestamp();
        long faultedAt = long.MaxValue;
        long backAt = long.MaxValue;

        // The load ends settings.After after the member is back, not at a fixed time: a restart that takes longer than
        // After on a loaded machine (an etcd member restarted in CI) would otherwise leave no operation due after it.
        long end = long.MaxValue;
        Task faults = Task.Run(async () =>
        {
            try
            {
                await DelayUntil(start + Ticks(settings.Before), cancellationToken).ConfigureAwait(false);
                Volatile.Write(ref faultedAt, await cluster.FaultAsync(member, settings.Fault).ConfigureAwait(false));
                await DelayUntil(start + Ticks(settings.Before + settings.During), cancellationToken).ConfigureAwait(false);
                await cluster.EndFaultAsync(member, settings.Fault, cancellationToken).ConfigureAwait(false);
                Volatile.Write(ref backAt, Stopwatch.GetTimestamp());
            }
            finally
            {
                // A fault that failed ends the load at once; the failure is thrown when faults is awaited.
                long back = Volatile.Read(ref backAt);
                Volatile.Write(ref end, back == long.MaxValue ? Stopwatch.GetTimestamp() : back + Ticks(settings.After));
            }
        }, cancellationToken);

        long interval = Stopwatch.Frequency / settings.Rate;
        ClientRun[] clients = await Task.WhenAll(Enumerable.Range(0, settings.Clients).Select(client => Task.Factory.StartNew(
            () =>
            {
                // Each client sends every Clients-th operation of the one schedule, and updates only the keys it owns
                // (key % Clients), so a key's versions are written one after another and a newer version is never
                // overwritten by an older one that happened to arrive later; it reads any key.
                var run = new ClientRun();
                var random = new Random(settings.RandomStream + client);
                int owned = (keys.Length - client + settings.Clients - 1) / settings.Clients;
                for (long due = start + (client * interval);
                    due < Volatile.Read(ref end) && !cancellationToken.IsCancellationRequested;
                    due += settings.Clients * interval)
                {
                    WaitUntil(due);
                    if (due >= Volatile.Read(ref end))
                    {
                        // The member came back, and After passed, while this client waited for the operation's moment.
                        break;
                    }

                    bool write = owned > 0 && random.NextDouble() >= settings.ReadFraction;
                    int key = write ? client + (random.Next(owned) * settings.Clients) : random.Next(keys.Length);
                    long acknowledgedBefore = Volatile.Read(ref acknowledged[key]);
                    bool ok = true;
                    try
                    {
                        if (write)
                        {
                            long version = ++attempted[key];
                            store.Put(keys[key], Value(version, settings.ValueBytes));
                            Volatile.Write(ref acknowledged[key], version);
                        }
                        else if (VersionOf(store.Get(keys[key])) < acknowledgedBefore)
                        {
                            run.StaleReads++;
                        }
                    }
                    catch (KeyValueStoreException error)
                    {
                        ok = false;
                        string kind = Kind(error);
                        run.Errors[kind] = run.Errors.GetValueOrDefault(kind) + 1;
                    }

                    run.Operations.Add(new Operation(due, Stopwatch.GetTimestamp(), write, ok));
                }

                return run;
            },
            cancellationToken,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default))).ConfigureAwait(false);
        List<Operation> operations = [.. clients.SelectMany(client => client.Operations).OrderBy(operation => operation.Due)];
        int staleReads = clients.Sum(client => client.StaleReads);
        Dictionary<string, int> errors = clients.SelectMany(client => client.Errors)
            .GroupBy(error => error.Key, StringComparer.Ordinal)
            .ToDictionary(kind => kind.Key, kind => kind.Sum(error => error.Value), StringComparer.Ordinal);
        await faults.ConfigureAwait(false);

        (int lost, int? leaderAfter) = await ReadBackAsync(cluster, store, keys, acknowledged, cancellationToken).ConfigureAwait(false);
        // The fault's moment, then every acknowledged update from then on: the widest gap between two is how long updates
        // stopped. Not "the first update after the fault": one sent while the kill was still under way may land first.
        long[] acknowledgedFromFault = [faultedAt, .. operations
            .Where(operation => operation.Write && operation.Ok && operation.Done >= faultedAt)
            .Select(operation => operation.Done)
            .Order()];
        double? longestStall = acknowledgedFromFault.Length < 2
            ? null
            : acknowledgedFromFault.Zip(acknowledgedFromFault.Skip(1), (earlier, later) => (double)(later - earlier) / Stopwatch.Frequency).Max();
        return new ClusterFaultResult(
            cluster.Row.Name,
            settings,
            member,
            leaderAfter,
            WritesAcknowledged: operations.Count(operation => operation.Write && operation.Ok),
            LostAfterRun: lost,
            Reads: operations.Count(operation => !operation.Write && operation.Ok),
            StaleReads: staleReads,
            Errors: errors,
            LongestStallSeconds: longestStall,
            Before: Phase(operations.Where(operation => operation.Done < faultedAt)),
            During: Phase(operations.Where(operation => operation.Done >= faultedAt && operation.Due < backAt)),
            After: Phase(operations.Where(operation => operation.Due >= backAt)));
    }

    /// <summary>
    /// Once the member is back and a leader elected, reads every key (each read retried until it returns, within
    /// <see cref="s_settleTimeout"/>): how many hold a version older than the one last acknowledged, and which member leads.
    /// </summary>
    private static async Task<(int Lost, int? Leader)> ReadBackAsync(
        IFaultableServer cluster, IKeyValueStore store, byte[][] keys, long[] acknowledged,
        CancellationToken cancellationToken)
    {
        using var settle = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        settle.CancelAfter(s_settleTimeout);
        int? leader = null;
        while (leader is null)
        {
            try
            {
                leader = await cluster.LeaderAsync(settle.Token).ConfigureAwait(false);
            }
            catch (InvalidOperationException)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100), settle.Token).ConfigureAwait(false);
            }
        }

        int lost = 0;
        for (int key = 0; key < keys.Length; key++)
        {
            while (true)
            {
                try
                {
                    lost += VersionOf(store.Get(keys[key])) < acknowledged[key] ? 1 : 0;
                    break;
                }
                catch (KeyValueStoreException error)
                {
                    if (settle.IsCancellationRequested)
                    {
                        throw new TimeoutException(
                            $"{cluster.Row.Name} answered no read within {s_settleTimeout.TotalSeconds:0} s after the run: {error.Message}",
                            error);
                    }

                    await Task.Delay(TimeSpan.FromMilliseconds(100), CancellationToken.None).ConfigureAwait(false);
                }
            }
        }

        return (lost, leader);
    }

    private static FaultPhaseLatency Phase(IEnumerable<Operation> operations)
    {
        double[] milliseconds = [.. operations.Select(operation => (operation.Done - operation.Due) * 1_000.0 / Stopwatch.Frequency).Order()];
        int failed = operations.Count(operation => !operation.Ok);
        return milliseconds.Length == 0
            ? new FaultPhaseLatency(0, 0, 0, 0)
            : new FaultPhaseLatency(milliseconds.Length, failed, milliseconds[(int)Math.Ceiling(0.99 * milliseconds.Length) - 1], milliseconds[^1]);
    }

    /// <summary>The error's type, and the gRPC status its cause carries (etcd's client says "Unavailable", "DeadlineExceeded").</summary>
    private static string Kind(Exception error)
    {
        string? status = error.InnerException is { } cause && StatusCode().Match(cause.Message) is { Success: true } match ? match.Groups[1].Value : null;
        return status is null ? error.GetType().Name : $"{error.GetType().Name} ({status})";
    }

    private static byte[] Value(long version, int valueBytes)
    {
        byte[] value = new byte[valueBytes];
        BinaryPrimitives.WriteInt64LittleEndian(value, version);
        value.AsSpan(sizeof(long)).Fill((byte)version);
        return value;
    }

    /// <summary>The version a value holds, or -1 for a key the store does not hold.</summary>
    private static long VersionOf(byte[]? value) => value is { Length: >= sizeof(long) } ? BinaryPrimitives.ReadInt64LittleEndian(value) : -1;

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private static async Task DelayUntil(long timestamp, CancellationToken cancellationToken)
    {
        TimeSpan left = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), timestamp);
        if (left > TimeSpan.Zero)
        {
            await Task.Delay(left, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Sleeps until <paramref name="timestamp"/>: an operation goes when due, never early; late ones go at once.</summary>
    private static void WaitUntil(long timestamp)
    {
        while (Stopwatch.GetTimestamp() < timestamp)
        {
            TimeSpan left = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), timestamp);
            Thread.Sleep(left > TimeSpan.FromMilliseconds(2) ? left - TimeSpan.FromMilliseconds(1) : TimeSpan.Zero);
        }
    }

    [GeneratedRegex("StatusCode=\"?([A-Za-z]+)")]
    private static partial Regex StatusCode();

    private readonly record struct Operation(long Due, long Done, bool Write, bool Ok);

    /// <summary>What one client saw.</summary>
    private sealed class ClientRun
    {
        public List<Operation> Operations { get; } = [];

        public Dictionary<string, int> Errors { get; } = new(StringComparer.Ordinal);

        public int StaleReads { get; set; }
    }
}
