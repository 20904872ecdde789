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
    /// <summary>What the growth probe leaves free on the disk, so a store's own logs and the rest of the machine still have room.</summary>
    private const long DiskHeadroomBytes = 1L << 30;

    /// <summary>
    /// The longest key that is stored and read back byte-exact: the claimed limit tried first, then searched by doubling
    /// and bisection when the claim does not hold (see <see cref="LargestAccepted(int, int?, Func{int, bool}, TimeSpan?)"/>).
    /// </summary>
    public static SizeMeasurement LargestKey(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int searchLimitBytes, int? claimedBytes = null)
    {
        using IKeyValueStore store = open(Options(workDirectory, "largest-key"));
        byte[] value = [0x5A];
        return LargestAccepted(searchLimitBytes, claimedBytes, length =>
        {
            byte[] key = Fill(length, stream: length);
            store.Put(key, value);
            bool ok = store.Get(key) is [0x5A];
            store.Delete(key);
            return ok;
        });
    }

    /// <summary>
    /// The longest value that is stored and read back byte-exact: the claimed limit tried first, then searched by
    /// doubling and bisection when the claim does not hold (see <see cref="LargestAccepted(int, int?, Func{int, bool}, TimeSpan?)"/>).
    /// </summary>
    public static SizeMeasurement LargestValue(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int searchLimitBytes, int? claimedBytes = null)
    {
        using IKeyValueStore store = open(Options(workDirectory, "largest-value"));
        byte[] key = [0x76, 0x61, 0x6C];
        return LargestAccepted(searchLimitBytes, claimedBytes, length =>
        {
            byte[] value = Fill(length, stream: length);
            store.Put(key, value);
            return store.Get(key) is { } read && read.AsSpan().SequenceEqual(value);
        });
    }

    /// <summary>
    /// Writes <paramref name="factor"/> times <paramref name="initialBytes"/> into a new store without reopening it, then
    /// reads it all back. A store that preallocates is opened asking for <paramref name="initialBytes"/> first, through
    /// <paramref name="withInitialSize"/> (<see cref="Stores.StoreRow.WithInitialSize"/>), so it must grow past its start;
    /// one that grows from nothing is opened as it is, and the measurement says which it was. Where the work directory's
    /// disk has less than twice the target free (stores write logs and compactions beside their data), the writes stop at
    /// what the disk allows and the measurement says so.
    /// </summary>
    public static GrowthMeasurement Growth(
        Func<StoreOptions, IKeyValueStore> open,
        string workDirectory,
        long initialBytes,
        int factor,
        Func<StoreOptions, long, StoreOptions>? withInitialSize = null)
    {
        ArgumentNullException.ThrowIfNull(open);
        const int ValueBytes = 64 * 1024;
        var records = new RecordSet(ValueBytes);
        long target = initialBytes * factor;
        StoreOptions plain = Options(workDirectory, "growth");
        StoreOptions options = withInitialSize?.Invoke(plain, initialBytes) ?? plain;

        // Records compare by value and type: options equal to the plain ones mean the row had no start size to take.
        bool sized = !options.Equals(plain);
        Directory.CreateDirectory(options.Directory);
        long free = new DriveInfo(Path.GetFullPath(options.Directory)).AvailableFreeSpace;
        long allowed = Math.Min(target, Math.Max(0, (free - DiskHeadroomBytes) / 2));
        long? cappedByDiskFree = allowed < target ? free : null;
        long count = allowed / ValueBytes;
        GrowthMeasurement Result(bool grew, long written, string? failure) =>
            new(grew, initialBytes, written, failure) { TargetBytes = target, CappedByDiskFreeBytes = cappedByDiskFree, OpenedAtInitialSize = sized };

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
                ? Result(true, written, null)
                : Result(false, written, $"{verification.Missing} records missing and {verification.Wrong} wrong on read-back");
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return Result(false, written, $"{e.GetType().Name}: {e.Message}");
        }
    }

    /// <summary>
    /// Single-thread Get and Put loops of 9-byte keys and 128-byte values at Buffered durability, each measured for
    /// <paramref name="duration"/> after a fifth of that unmeasured. Every Put writes the next version of its record's
    /// value, so each one changes the bytes its key holds (see <see cref="ValueVersion"/>), and every key is checked
    /// afterwards, in a scan of the whole store, for the version written last.
    /// </summary>
    public static ThroughputMeasurement Throughput(Func<StoreOptions, IKeyValueStore> open, string workDirectory, int records, TimeSpan duration)
    {
        var versioned = new VersionedRecords(new RecordSet(valueBytes: 128), records);
        using IKeyValueStore store = open(Options(workDirectory, "throughput"));
        versioned.Records.Load(store, records);
        versioned.VerifyLastWrites(ReadAll(store)).ThrowIfFailed(store.Name);
        var buffer = new ArrayBufferWriter<byte>(256);

        double reads = OperationsPerSecond(duration, i =>
        {
            buffer.ResetWrittenCount();
            if (!store.TryGet(versioned.Key(i % records), buffer))
            {
                throw new InvalidDataException($"{store.Name} lost a preloaded record during the read loop.");
            }
        });
        double writes = OperationsPerSecond(duration, i =>
        {
            int index = i % records;
            store.Put(versioned.Key(index), versioned.Rewrite(index));
        });
        versioned.VerifyLastWrites(ReadAll(store)).ThrowIfFailed(store.Name);
        return new ThroughputMeasurement(reads, writes);
    }

    /// <summary>
    /// What <paramref name="store"/> holds, read in one scan, as a lookup by key. A Get per record checked the same
    /// bytes, but LiteDB's shared-mode row opens its file for every call, so its two checks a Get per record were most
    /// of its throughput probe; one scan reads every record in a single call.
    /// </summary>
    private static Func<byte[], byte[]?> ReadAll(IKeyValueStore store)
    {
        var stored = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (KeyValuePair<byte[], byte[]> record in store.ScanFrom(ReadOnlyMemory<byte>.Empty, int.MaxValue))
        {
            stored[Convert.ToHexString(record.Key)] = record.Value;
        }

        return key => stored.GetValueOrDefault(Convert.ToHexString(key));
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

    /// <summary>
    /// The largest length in [1, <paramref name="limit"/>] that <paramref name="accepts"/>; 0 when even 1 fails. A false
    /// return or an <see cref="ArgumentException"/> (the typed size errors are ones) counts as "not accepted" at once;
    /// any other error counts so only when it recurs on each of <see cref="LengthTrial.Attempts"/> tries.
    /// </summary>
    /// <remarks>
    /// The claim is tried first: accepted at <paramref name="claimed"/> and refused one byte past it (or accepted at
    /// <paramref name="limit"/> when the claim reaches it) pins the boundary in two tries, the same boundary the search
    /// would find, since the search too takes acceptance as monotonic in the length. A claim that does not hold is
    /// disproved there and the limit found by doubling and bisection: a bisection up to a 16 MB claim writes a couple of
    /// dozen values of 8 to 16 MB, which cost LiteDB's shared row an engine and a checkpoint per write, minutes of a run.
    /// </remarks>
    internal static SizeMeasurement LargestAccepted(int limit, int? claimed, Func<int, bool> accepts, TimeSpan? retryDelay = null)
    {
        var trial = new LengthTrial(accepts, retryDelay ?? LengthTrial.DefaultRetryDelay);
        if (claimed is >= 1 and < int.MaxValue
            && (claimed >= limit ? trial.Try(limit) : trial.Try(claimed.Value) && !trial.Try(claimed.Value + 1)))
        {
            return new SizeMeasurement(Math.Min(claimed.Value, limit), limit);
        }

        return new SizeMeasurement(LargestAccepted(limit, trial.Try), limit) { Error = trial.Error };
    }

    /// <summary>
    /// The largest length in [1, <paramref name="limit"/>] that <paramref name="accepts"/>, by doubling then bisection;
    /// 0 when even 1 fails. <paramref name="accepts"/> must not throw (see <see cref="LengthTrial.Try"/>).
    /// </summary>
    internal static int LargestAccepted(int limit, Func<int, bool> accepts)
    {
        if (!accepts(1))
        {
            return 0;
        }

        int good = 1;
        int bad = -1;
        while (good < limit)
        {
            int next = (int)Math.Min((long)good * 2, limit);
            if (!accepts(next))
            {
                bad = next;
                break;
            }

            good = next;
        }

        while (bad > good + 1)
        {
            int middle = good + ((bad - good) / 2);
            if (accepts(middle))
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

    /// <summary>
    /// Calls of <paramref name="operation"/> per second over <paramref name="duration"/>, after a fifth of that unmeasured:
    /// a loop's first calls run the JIT's first, unoptimized code and meet the store's caches cold.
    /// </summary>
    private static double OperationsPerSecond(TimeSpan duration, Action<int> operation)
    {
        int done = 0;
        RunFor(duration / 5, operation, ref done);
        int warmedUp = done;
        double seconds = RunFor(duration, operation, ref done);
        return (done - warmedUp) / seconds;
    }

    /// <summary>
    /// Calls <paramref name="operation"/> in batches until <paramref name="duration"/> has passed, counting in
    /// <paramref name="done"/>; the seconds taken.
    /// </summary>
    private static double RunFor(TimeSpan duration, Action<int> operation, ref int done)
    {
        const int Batch = 64;
        long start = Stopwatch.GetTimestamp();
        long stopAt = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
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
        return Stopwatch.GetElapsedTime(start, now).TotalSeconds;
    }

    private static StoreOptions Options(string workDirectory, string probe) =>
        new() { Directory = Path.Combine(workDirectory, probe), Durability = Durability.Buffered };

    private static byte[] Fill(int length, int stream)
    {
        byte[] bytes = GC.AllocateUninitializedArray<byte>(length);
        new Random(stream).NextBytes(bytes);
        return bytes;
    }
}
