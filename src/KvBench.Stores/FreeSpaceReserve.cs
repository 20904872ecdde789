using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// Refuses writes with <see cref="StoreFullException"/> while the file system that holds a store has less than a reserve
/// free, for engines that a full disk does not fail cleanly or that write on their own after acknowledging: on a full
/// file system, FASTER 2.6.5 blocks its writer for good once its log cannot flush a page, and LiteDB copies its log
/// into the data file after the writes were acknowledged. The reserve leaves room for what the engine writes on its
/// own (a log page, a checkpoint). RocksDB no longer takes one: Debian's 7.8.3 aborted the process on the first write
/// that found the disk full (an assertion in its WAL writer), while the RocksDB package's 11.12.0 fails that write
/// with "No space left on device" and keeps every acknowledged one.
/// </summary>
/// <remarks>
/// <para>
/// Every Put passes through here, so the common case costs no locked instruction, no clock read and no system call:
/// each thread writes against an allowance of its own (<see cref="AllowanceBytes"/>, kept in a <see cref="ThreadSlots"/>
/// slot that only it writes) with plain arithmetic, and only when that runs out does it take the lock and refill it from
/// the shared estimate of free space. The estimate is the last reading of the free space (statvfs, through
/// <see cref="DriveInfo"/>) less every allowance handed out since, so what the threads may still write never exceeds
/// what was free above the reserve at that reading. The free space is read again at a refill once
/// <see cref="ReadingIntervalMilliseconds"/> ms have passed, or when the estimate has no allowance left above the
/// reserve; a reading voids every allowance handed out before it (they were counted against the old reading), so
/// within the allowance of the reserve every write reads the free space, as it must to be refused in time.
/// </para>
/// <para>
/// What another process writes to the same file system is seen at the next reading: a thread that writes slowly may
/// write up to its allowance, a few MiB, after the disk has filled under it; the reserve is many times that.
/// </para>
/// </remarks>
internal sealed class FreeSpaceReserve
{
    /// <summary>
    /// What a thread may write between two visits to the shared estimate: at 128-byte values, thirty thousand Puts per
    /// visit, and a few MiB per writing thread is small beside the reserves (RocksDB's and FASTER's are 144 MiB).
    /// </summary>
    internal const long AllowanceBytes = 4L << 20;

    /// <summary>Milliseconds between two readings of the free space when writes are far from the reserve.</summary>
    private const long ReadingIntervalMilliseconds = 100;

    /// <summary>Where a slot holds the bytes its thread may still write.</summary>
    private const int Allowance = ThreadSlots.First;

    /// <summary>Where a slot holds the reading its allowance was counted against; an older one voids it.</summary>
    private const int Reading = ThreadSlots.First + 1;

    private readonly string _storeName;
    private readonly string _directory;
    private readonly long _reserveBytes;
    private readonly string _reason;
    private readonly ThreadSlots _allowances = new();
    private readonly Lock _refilling = new();
    private long _estimatedFreeBytes;
    private long _nextReadingAt;

    /// <summary>How many times the free space was read; starts at 1 so that a new slot's 0 is no valid reading.</summary>
    private long _reading = 1;

    /// <param name="storeName">The row name, for the error.</param>
    /// <param name="directory">The store's directory (full path).</param>
    /// <param name="reserveBytes">The free space below which writes are refused.</param>
    /// <param name="reason">Why the engine needs the reserve, completing "kept free because ...".</param>
    public FreeSpaceReserve(string storeName, string directory, long reserveBytes, string reason)
    {
        _storeName = storeName;
        _directory = directory;
        _reserveBytes = reserveBytes;
        _reason = reason;
    }

    /// <summary>The free space below which writes are refused.</summary>
    public long ReserveBytes => _reserveBytes;

    /// <summary>Counts <paramref name="bytes"/> about to be written, or refuses them when the reserve would be reached.</summary>
    /// <exception cref="StoreFullException">The file system has less than the reserve and <paramref name="bytes"/> free.</exception>
    public void Claim(long bytes)
    {
        long[] slot = _allowances.Current;
        long allowance = slot[Allowance];
        // An empty allowance always refills, so a writer's Flush (a claim of 0 bytes) near the reserve reads the free space.
        if (allowance >= bytes && allowance != 0 && slot[Reading] == Volatile.Read(ref _reading))
        {
            slot[Allowance] = allowance - bytes;
            return;
        }

        Refill(slot, bytes);
    }

    private void Refill(long[] slot, long bytes)
    {
        long grant = Math.Max(bytes, AllowanceBytes);
        lock (_refilling)
        {
            if (_estimatedFreeBytes - grant >= _reserveBytes && Environment.TickCount64 < _nextReadingAt)
            {
                _estimatedFreeBytes -= grant;
                Grant(slot, grant - bytes);
                return;
            }

            long free = new DriveInfo(_directory).AvailableFreeSpace;
            Volatile.Write(ref _reading, _reading + 1);
            _nextReadingAt = Environment.TickCount64 + ReadingIntervalMilliseconds;
            if (free - grant >= _reserveBytes)
            {
                _estimatedFreeBytes = free - grant;
                Grant(slot, grant - bytes);
                return;
            }

            // Within an allowance of the reserve: no allowance, so the next write reads the free space again.
            _estimatedFreeBytes = free - bytes;
            Grant(slot, 0);
            if (free - bytes < _reserveBytes)
            {
                throw new StoreFullException(
                    _storeName,
                    _directory,
                    new IOException($"{free:N0} bytes free, and KvBench keeps {_reserveBytes:N0} free for {_storeName} because {_reason}."));
            }
        }
    }

    private void Grant(long[] slot, long allowance)
    {
        slot[Allowance] = allowance;
        slot[Reading] = _reading;
    }
}
