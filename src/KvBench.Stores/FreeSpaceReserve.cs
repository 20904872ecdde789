using KvBench.Core;

namespace KvBench.Stores;

/// <summary>
/// Refuses writes with <see cref="StoreFullException"/> while the file system that holds a store has less than a reserve
/// free, for engines that a full disk does not fail cleanly: measured on 2026-11-22 on a 16 MiB tmpfs, Debian's RocksDB
/// 7.8.3 aborts the process (an assertion in its WAL writer, <c>sync_without_flush_called_</c>) on the first write
/// that finds the disk full, and FASTER 2.6.5 blocks its writer for good once its log cannot flush a page. The reserve
/// leaves room for what the engine writes on its own after acknowledging (a memtable flush, a log page, a checkpoint).
/// </summary>
/// <remarks>
/// The free space is read (statvfs, through <see cref="DriveInfo"/>) at most every <see cref="ReadingIntervalMilliseconds"/> ms, or
/// sooner once the bytes written since the last reading could have used the margin above the reserve: a write costs an
/// interlocked add and a tick count, not a system call.
/// </remarks>
internal sealed class FreeSpaceReserve
{
    /// <summary>Milliseconds between two readings of the free space when writes are far from the reserve.</summary>
    private const long ReadingIntervalMilliseconds = 100;

    private readonly string _storeName;
    private readonly string _directory;
    private readonly long _reserveBytes;
    private readonly string _reason;
    private long _estimatedFreeBytes;
    private long _nextReadingAt;

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
        long estimated = Interlocked.Add(ref _estimatedFreeBytes, -bytes);
        if (estimated >= _reserveBytes && Environment.TickCount64 < Volatile.Read(ref _nextReadingAt))
        {
            return;
        }

        long free = new DriveInfo(_directory).AvailableFreeSpace;
        Volatile.Write(ref _estimatedFreeBytes, free - bytes);
        Volatile.Write(ref _nextReadingAt, Environment.TickCount64 + ReadingIntervalMilliseconds);
        if (free - bytes < _reserveBytes)
        {
            throw new StoreFullException(
                _storeName,
                _directory,
                new IOException($"{free:N0} bytes free, and KvBench keeps {_reserveBytes:N0} free for {_storeName} because {_reason}."));
        }
    }
}
