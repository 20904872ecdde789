namespace KvBench.Evaluation.Workload;

/// <summary>
/// The latest version issued for each record, shared by every thread of a run: a writer takes the next version before
/// it writes, and a reader accepts any version up to the latest issued, so a read checks that it got bytes some writer
/// produced for that key. Grows in chunks, lock-free, as inserts add records.
/// </summary>
internal sealed class VersionTable
{
    private const int ChunkBits = 16;
    private const int ChunkSize = 1 << ChunkBits;

    private long[]?[] _chunks = new long[]?[64];
    private readonly Lock _grow = new();

    /// <summary>Issues record <paramref name="index"/>'s next version.</summary>
    public ulong Next(long index) => (ulong)Interlocked.Increment(ref Slot(index));

    /// <summary>The latest version issued for record <paramref name="index"/> (0: only the loaded or inserted value).</summary>
    public ulong Latest(long index) => (ulong)Volatile.Read(ref Slot(index));

    /// <summary>Record <paramref name="index"/>'s slot, for a caller that keeps a count or a state of its own in the table.</summary>
    public ref long Slot(long index)
    {
        long chunk = index >> ChunkBits;
        long[]?[] chunks = Volatile.Read(ref _chunks);
        if (chunk >= chunks.Length || chunks[chunk] is null)
        {
            chunks = Grow(chunk);
        }

        return ref chunks[chunk]![index & (ChunkSize - 1)];
    }

    private long[]?[] Grow(long chunk)
    {
        lock (_grow)
        {
            long[]?[] chunks = _chunks;
            if (chunk >= chunks.Length)
            {
                long[]?[] larger = new long[]?[Math.Max(chunks.Length * 2, chunk + 1)];
                Array.Copy(chunks, larger, chunks.Length);
                chunks = larger;
            }

            chunks[chunk] ??= new long[ChunkSize];
            Volatile.Write(ref _chunks, chunks);
            return chunks;
        }
    }
}
