using System.Buffers;
using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Probes;

/// <summary>
/// One probe per capability column, each against a real store in a fresh directory under <c>workDirectory</c>.
/// A probe drives the store only through <see cref="IKeyValueStore"/>, so what it measures is what a caller gets.
/// </summary>
public static class CapabilityProbes
{
    private static readonly byte[] s_scanMarkerPrefix = [0xFE, 0xFE, 0xFE, 0xFE];

    /// <summary>The longest key that is stored and read back byte-exact, searched by doubling then bisection.</summary>
    public static SizeMeasurement LargestKey(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int searchLimitBytes)
    {
        using IKeyValueStore store = open(Options(workDirectory, "largest-key"));
        byte[] value = [0x5A];
        int largest = LargestAccepted(searchLimitBytes, length =>
        {
            byte[] key = Fill(length, seed: length);
            store.Put(key, value);
            bool ok = store.Get(key) is [0x5A];
            store.Delete(key);
            return ok;
        });
        return new SizeMeasurement(largest, searchLimitBytes);
    }

    /// <summary>The longest value that is stored and read back byte-exact, searched by doubling then bisection.</summary>
    public static SizeMeasurement LargestValue(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int searchLimitBytes)
    {
        using IKeyValueStore store = open(Options(workDirectory, "largest-value"));
        byte[] key = [0x76, 0x61, 0x6C];
        int largest = LargestAccepted(searchLimitBytes, length =>
        {
            byte[] value = Fill(length, seed: length);
            store.Put(key, value);
            return store.Get(key) is { } read && read.AsSpan().SequenceEqual(value);
        });
        return new SizeMeasurement(largest, searchLimitBytes);
    }

    /// <summary>Opens at <paramref name="initialBytes"/> and writes <paramref name="factor"/> times that without reopening, then reads it all back.</summary>
    public static GrowthMeasurement Growth(Func<StoreOptions, IKeyValueStore> open, string workDirectory, long initialBytes, int factor)
    {
        const int ValueBytes = 64 * 1024;
        var records = new RecordSet(ValueBytes);
        long count = initialBytes * factor / ValueBytes;
        StoreOptions options = Options(workDirectory, "growth") with { InitialSizeBytes = initialBytes };
        using IKeyValueStore store = open(options);
        long written = 0;
        try
        {
            for (long i = 0; i < count; i++)
            {
                store.Put(records.Key(i), records.Value(i));
                written += ValueBytes;
            }

            VerificationResult verification = records.Verify(store, count);
            return verification.Ok
                ? new GrowthMeasurement(true, initialBytes, written, null)
                : new GrowthMeasurement(false, initialBytes, written, $"{verification.Missing} records missing and {verification.Wrong} wrong on read-back");
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return new GrowthMeasurement(false, initialBytes, written, $"{e.GetType().Name}: {e.Message}");
        }
    }

    /// <summary>
    /// Times a prefix scan that matches five records in a small and in a large store. An ordered index seeks, so the
    /// large store costs about the same; a full scan costs about the size ratio more.
    /// </summary>
    public static ScanMeasurement PrefixScan(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int smallRecords, int largeRecords)
    {
        double small = MedianScanTicks(open, Options(workDirectory, "scan-small"), smallRecords);
        double large = MedianScanTicks(open, Options(workDirectory, "scan-large"), largeRecords);
        double sizeRatio = (double)largeRecords / smallRecords;
        double timeRatio = large / Math.Max(small, 1);
        return new ScanMeasurement(timeRatio < Math.Sqrt(sizeRatio), timeRatio, sizeRatio);
    }

    /// <summary>Single-thread Get and Put loops of 9-byte keys and 128-byte values at Buffered durability, each for <paramref name="duration"/>.</summary>
    public static ThroughputMeasurement Throughput(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int records, TimeSpan duration)
    {
        var recordSet = new RecordSet(valueBytes: 128);
        using IKeyValueStore store = open(Options(workDirectory, "throughput"));
        recordSet.Load(store, records);
        recordSet.Verify(store, records, sampleSize: 100).ThrowIfFailed(store.Name);
        byte[][] keys = [.. Enumerable.Range(0, records).Select(i => recordSet.Key(i))];
        byte[] value = recordSet.Value(0);
        var buffer = new ArrayBufferWriter<byte>(256);

        double reads = OperationsPerSecond(duration, i =>
        {
            buffer.ResetWrittenCount();
            if (!store.TryGet(keys[i % records], buffer))
            {
                throw new InvalidDataException($"{store.Name} lost a preloaded record during the read loop.");
            }
        });
        double writes = OperationsPerSecond(duration, i => store.Put(keys[i % records], value));
        return new ThroughputMeasurement(reads, writes);
    }

    /// <summary>The tiers at which flushed writes survive closing and reopening the store; a tier the store refuses is not offered.</summary>
    public static DurabilityTiers SurvivesReopen(Func<StoreOptions, IKeyValueStore> open, string workDirectory)
    {
        var records = new RecordSet(valueBytes: 100);
        DurabilityTiers survived = DurabilityTiers.None;
        foreach (Durability durability in Enum.GetValues<Durability>())
        {
            StoreOptions options = Options(workDirectory, $"reopen-{durability}") with { Durability = durability };
            try
            {
                using (IKeyValueStore store = open(options))
                {
                    records.Load(store, 50);
                    store.Flush();
                }

                using IKeyValueStore reopened = open(options);
                if (records.Verify(reopened, 50).Ok)
                {
                    survived |= durability.ToTier();
                }
            }
            catch (DurabilityNotOfferedException)
            {
            }
        }

        return survived;
    }

    /// <summary>The largest length in [1, <paramref name="limit"/>] that <paramref name="accepts"/>; 0 when even 1 fails. Any exception counts as "not accepted".</summary>
    internal static int LargestAccepted(int limit, Func<int, bool> accepts)
    {
        bool Try(int length)
        {
            try
            {
                return accepts(length);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                return false;
            }
        }

        if (!Try(1))
        {
            return 0;
        }

        int good = 1;
        int bad = -1;
        while (good < limit)
        {
            int next = (int)Math.Min((long)good * 2, limit);
            if (!Try(next))
            {
                bad = next;
                break;
            }

            good = next;
        }

        while (bad > good + 1)
        {
            int middle = good + ((bad - good) / 2);
            if (Try(middle))
            {
                good = middle;
            }
            else
            {
                bad = middle;
            }
        }

        return good;
    }

    private static double MedianScanTicks(Func<StoreOptions, IKeyValueStore> open, StoreOptions options, int records)
    {
        const int Markers = 5;
        const int Runs = 7;
        var recordSet = new RecordSet(valueBytes: 16);
        using IKeyValueStore store = open(options);
        recordSet.Load(store, records);
        for (byte i = 0; i < Markers; i++)
        {
            store.Put([.. s_scanMarkerPrefix, i], [i]);
        }

        int found = store.ScanPrefix(s_scanMarkerPrefix).Count();
        if (found != Markers)
        {
            throw new InvalidDataException($"{store.Name}: a prefix scan returned {found} records where {Markers} match.");
        }

        var ticks = new long[Runs];
        for (int run = 0; run < Runs; run++)
        {
            long start = Stopwatch.GetTimestamp();
            foreach (KeyValuePair<byte[], byte[]> entry in store.ScanPrefix(s_scanMarkerPrefix))
            {
                GC.KeepAlive(entry.Value);
            }

            ticks[run] = Stopwatch.GetTimestamp() - start;
        }

        Array.Sort(ticks);
        return ticks[Runs / 2];
    }

    private static double OperationsPerSecond(TimeSpan duration, Action<int> operation)
    {
        const int Batch = 64;
        long stopAt = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long start = Stopwatch.GetTimestamp();
        int done = 0;
        long now;
        do
        {
            for (int i = 0; i < Batch; i++)
            {
                operation(done++);
            }

            now = Stopwatch.GetTimestamp();
        }
        while (now < stopAt);
        return done / Stopwatch.GetElapsedTime(start, now).TotalSeconds;
    }

    private static StoreOptions Options(string workDirectory, string probe) =>
        new() { Directory = Path.Combine(workDirectory, probe), Durability = Durability.Buffered };

    private static byte[] Fill(int length, int seed)
    {
        byte[] bytes = GC.AllocateUninitializedArray<byte>(length);
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
