using System.Buffers;

using KvBench.Stores.Baselines;

using Microsoft.Win32.SafeHandles;

namespace KvBench.Stores.FileSystem;

/// <summary>
/// <c>FileSystem_raw</c>: File APIs alone, one file per key named by the key's hex, written to a temporary file and
/// renamed over the old one (the same atomic replace the adapter does).
/// </summary>
internal sealed class FileSystemRaw(string directory) : IPointTarget
{
    private readonly string _data = Directory.CreateDirectory(Path.Combine(directory, "data")).FullName;
    private readonly string _temp = Path.Combine(directory, "put.tmp");

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        File.WriteAllBytes(_temp, value);
        File.Move(_temp, PathOf(key), overwrite: true);
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        try
        {
            using SafeFileHandle file = File.OpenHandle(PathOf(key));
            int length = (int)RandomAccess.GetLength(file);

            // One read: a regular file of a few kilobytes comes back whole from the page cache.
            destination.Advance(RandomAccess.Read(file, destination.GetSpan(length)[..length], 0));
            return true;
        }
        catch (FileNotFoundException)
        {
            return false;
        }
    }

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        try
        {
            return File.ReadAllBytes(PathOf(key));
        }
        catch (FileNotFoundException)
        {
            return null;
        }
    }

    public bool ContainsKey(ReadOnlySpan<byte> key) => File.Exists(PathOf(key));

    public void Dispose()
    {
    }

    private string PathOf(ReadOnlySpan<byte> key) => string.Concat(_data, "/", Convert.ToHexStringLower(key), ".v");
}
