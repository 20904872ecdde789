using System.Runtime.InteropServices;

namespace KvBench.Stores;

/// <summary>Which file the dynamic loader really mapped for a soname, so a report names the library version that ran.</summary>
internal static class NativeLibraryFile
{
    /// <summary>The file name (for example <c>librocksdb.so.7.8.3</c>) the loader mapped for <paramref name="soname"/>, from /proc/self/maps.</summary>
    public static string Describe(string soname)
    {
        if (!NativeLibrary.TryLoad(soname, out _) || !File.Exists("/proc/self/maps"))
        {
            return soname;
        }

        string stem = soname.Split(".so")[0] + ".so";
        return File.ReadLines("/proc/self/maps")
            .Select(line => line[(line.IndexOf('/', StringComparison.Ordinal) is var slash and >= 0 ? slash : line.Length)..])
            .Where(path => Path.GetFileName(path).StartsWith(stem, StringComparison.Ordinal))
            .Select(Path.GetFileName)
            .FirstOrDefault() ?? soname;
    }
}
