using System.Buffers;
using System.Runtime.InteropServices;

using KvBench.Core;

namespace KvBench.Stores.FileSystem;

/// <summary>
/// One file per key. A file's path is the key in lowercase hex, cut into 100-byte segments: every segment but the
/// last is a directory named <c>&lt;hex&gt;.d</c>, the last is a file named <c>&lt;hex&gt;.v</c>. Hex keeps every
/// byte (0x00, '/', '..') harmless, so no key can name a path outside the store; 100-byte segments keep every name
/// under the 255-byte limit; the suffixes keep a key and a longer key that extends it from colliding; and hex sorts
/// ordinally in the keys' byte order, so a scan recovers the key from its path and sorts it as a string.
/// Writes go to a temporary file that is renamed over the old one, so a reader sees the old value or the new, whole.
/// </summary>
internal sealed partial class FileSystemStore : StoreAdapter
{
    /// <summary>
    /// Longest key: 1,024 bytes become 2,048 hex characters and 11 segment separators, which leaves room for a base
    /// directory path of about 2,000 characters under Linux's 4,096-byte PATH_MAX.
    /// </summary>
    internal const int MaxKeyBytes = 1024;

    private const int SegmentHexChars = 200;
    private const string ValueSuffix = ".v";
    private const string DirectorySuffix = ".d";

    private readonly string _dataDirectory;
    private readonly string _tempDirectory;
    private readonly bool _synced;

    private const string DataDirectoryName = "data";

    public FileSystemStore(StoreRow row, StoreOptions options)
        : base(row, options)
    {
        _dataDirectory = Path.GetFullPath(Path.Combine(options.Directory, DataDirectoryName));
        _tempDirectory = Path.GetFullPath(Path.Combine(options.Directory, "tmp"));
        _synced = options.Durability == Durability.Synced;
        if (options.Access == StoreAccess.ReadWrite)
        {
            Directory.CreateDirectory(_dataDirectory);
            Directory.CreateDirectory(_tempDirectory);
        }
    }

    /// <summary>Whether <paramref name="directory"/> holds a file-system store: its data directory.</summary>
    internal static bool HoldsStore(string directory) => Directory.Exists(Path.Combine(directory, DataDirectoryName));

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        string path = PathOf(key);
        string directory = Path.GetDirectoryName(path)!;
        if (key.Length * 2 > SegmentHexChars && !Directory.Exists(directory))
        {
            Directory.CreateDirectory(directory);
            if (_synced)
            {
                // A new segment directory is reachable after a power cut only once each parent up to the data directory is flushed.
                string? parent = Path.GetDirectoryName(directory);
                for (; parent is not null && parent.Length >= _dataDirectory.Length; parent = Path.GetDirectoryName(parent))
                {
                    SyncDirectory(parent);
                }
            }
        }

        string temp = Path.Combine(_tempDirectory, Guid.NewGuid().ToString("N") + ".tmp");
        try
        {
            using (var handle = File.OpenHandle(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None, FileOptions.None, value.Length))
            {
                RandomAccess.Write(handle, value, 0);
                if (_synced)
                {
                    RandomAccess.FlushToDisk(handle);
                }
            }

            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            File.Delete(temp);
            throw;
        }

        if (_synced)
        {
            SyncDirectory(directory);
        }
    }

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using Microsoft.Win32.SafeHandles.SafeFileHandle? handle = OpenForRead(PathOf(key));
        if (handle is null)
        {
            return false;
        }

        int length = checked((int)RandomAccess.GetLength(handle));
        Span<byte> span = destination.GetSpan(length)[..length];
        ReadExactly(handle, span);
        destination.Advance(length);
        return true;
    }

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) => ReadFile(PathOf(key));

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) => File.Exists(PathOf(key));

    protected override bool DeleteCore(ReadOnlySpan<byte> key)
    {
        string path = PathOf(key);
        if (Unlink(path) == 0)
        {
            if (_synced)
            {
                SyncDirectory(Path.GetDirectoryName(path)!);
            }

            return true;
        }

        int errno = Marshal.GetLastPInvokeError();
        return errno is Errno.NoEntry or Errno.NotDirectory
            ? false
            : throw new IOException($"Deleting '{path}' failed with errno {errno}: {Marshal.GetPInvokeErrorMessage(errno)}");
    }

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scan(Convert.ToHexStringLower(prefix.Span), fromHex: string.Empty, int.MaxValue);

    /// <remarks>
    /// The names sort as the keys do, but a directory lists its entries in no order, so every call lists every key's
    /// file (skipping only directories of long keys that sort wholly before the start), keeps the names at or after the
    /// start, and puts only the smallest of them in order and reads them: n names listed, O(n + k log n) comparisons
    /// and k files read for n keys and k results.
    /// </remarks>
    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scan(prefixHex: string.Empty, Convert.ToHexStringLower(startKey.Span), limit);

    /// <summary>
    /// Up to <paramref name="limit"/> entries whose keys' hex starts with <paramref name="prefixHex"/> and sorts at or
    /// after <paramref name="fromHex"/>, in order.
    /// </summary>
    private IEnumerable<KeyValuePair<byte[], byte[]>> Scan(string prefixHex, string fromHex, int limit)
    {
        var keysHex = new List<string>();
        CollectKeys(_dataDirectory, string.Empty, prefixHex, fromHex, keysHex);
        int returned = 0;
        foreach (string keyHex in Scans.Ascending(keysHex, StringComparer.Ordinal))
        {
            if (returned == limit)
            {
                yield break;
            }

            // A key deleted since it was listed is skipped, and the next one takes its place.
            byte[] key = Convert.FromHexString(keyHex);
            byte[]? value = ReadFile(PathOf(key));
            if (value is not null)
            {
                returned++;
                yield return new(key, value);
            }
        }
    }

    // Buffered writes are in the page cache once written; Synced ones were flushed as they were written.
    protected override void FlushCore()
    {
    }

    protected override void DisposeCore()
    {
    }

    private string PathOf(ReadOnlySpan<byte> key)
    {
        string hex = Convert.ToHexStringLower(key);
        if (hex.Length <= SegmentHexChars)
        {
            return string.Concat(_dataDirectory, "/", hex, ValueSuffix);
        }

        var path = new System.Text.StringBuilder(_dataDirectory.Length + hex.Length + (hex.Length / SegmentHexChars * 3) + 4);
        path.Append(_dataDirectory);
        int start = 0;
        for (; hex.Length - start > SegmentHexChars; start += SegmentHexChars)
        {
            path.Append('/').Append(hex, start, SegmentHexChars).Append(DirectorySuffix);
        }

        return path.Append('/').Append(hex, start, hex.Length - start).Append(ValueSuffix).ToString();
    }

    /// <summary>
    /// Adds the hex of every key under <paramref name="directory"/> that starts with <paramref name="prefixHex"/> and
    /// sorts at or after <paramref name="fromHex"/>.
    /// </summary>
    private static void CollectKeys(string directory, string hexSoFar, string prefixHex, string fromHex, List<string> keysHex)
    {
        IEnumerable<string> entries;
        try
        {
            entries = Directory.EnumerateFileSystemEntries(directory);
        }
        catch (DirectoryNotFoundException)
        {
            return;
        }

        foreach (string entry in entries)
        {
            string name = Path.GetFileName(entry);
            string hex = string.Concat(hexSoFar, name.AsSpan(0, name.Length - 2));
            if (name.EndsWith(ValueSuffix, StringComparison.Ordinal))
            {
                if (hex.StartsWith(prefixHex, StringComparison.Ordinal) && string.CompareOrdinal(hex, fromHex) >= 0)
                {
                    keysHex.Add(hex);
                }
            }
            else if (name.EndsWith(DirectorySuffix, StringComparison.Ordinal)
                && (hex.StartsWith(prefixHex, StringComparison.Ordinal) || prefixHex.StartsWith(hex, StringComparison.Ordinal))
                // Every key below starts with the directory's hex, so all of them sort before the start when it does.
                && string.CompareOrdinal(hex, 0, fromHex, 0, hex.Length) >= 0)
            {
                CollectKeys(entry, hex, prefixHex, fromHex, keysHex);
            }
        }
    }

    private static byte[]? ReadFile(string path)
    {
        using Microsoft.Win32.SafeHandles.SafeFileHandle? handle = OpenForRead(path);
        if (handle is null)
        {
            return null;
        }

        byte[] value = new byte[checked((int)RandomAccess.GetLength(handle))];
        ReadExactly(handle, value);
        return value;
    }

    private static Microsoft.Win32.SafeHandles.SafeFileHandle? OpenForRead(string path)
    {
        try
        {
            return File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    private static void ReadExactly(Microsoft.Win32.SafeHandles.SafeFileHandle handle, Span<byte> buffer)
    {
        for (int read = 0; read < buffer.Length;)
        {
            int n = RandomAccess.Read(handle, buffer[read..], read);
            if (n == 0)
            {
                throw new IOException("The value file ended early; it was truncated outside the store.");
            }

            read += n;
        }
    }

    /// <summary>A rename is durable only once its directory is (<see cref="StoreDirectorySync.Sync"/>).</summary>
    private static void SyncDirectory(string directory) => StoreDirectorySync.Sync(directory);

    [LibraryImport("libc", EntryPoint = "unlink", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Unlink(string path);

    private static class Errno
    {
        public const int NoEntry = 2;
        public const int NotDirectory = 20;
    }
}
