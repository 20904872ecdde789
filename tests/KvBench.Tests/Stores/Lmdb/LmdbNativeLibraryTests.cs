using System.Reflection;
using System.Runtime.InteropServices;

using KvBench.Stores;
using KvBench.Stores.Lmdb;


using LmdbApi = LightningDB.Native.Lmdb;


namespace KvBench.Tests.Stores.Lmdb;

/// <summary>Which LMDB library LightningDB runs over here, and what the row's Engine text says about it.</summary>
public sealed class LmdbNativeLibraryTests(ITestOutputHelper output)
{
    /// <summary>LightningDB's imports that LMDB 0.9 does not export: LMDB 1.0's additions and LightningDB's wasm shims.</summary>
    private static readonly string[] s_absentFromLmdb09 =
    [
        "lmdb_setup_checksum", "lmdb_setup_encryption", "mdb_env_incr_dump", "mdb_env_incr_dumpfd", "mdb_env_incr_loadfd",
        "mdb_env_rollback", "mdb_env_set_checksum", "mdb_env_set_encrypt", "mdb_env_set_pagesize", "mdb_txn_prepare",
    ];

    [Fact]
    public void The_engine_names_the_package_the_library_that_loaded_and_why()
    {
        string engine = StoreCatalog.Engine(LmdbRow.RowName);
        output.WriteLine(engine);

        Assert.Null(LmdbNativeLibrary.UnavailableReason);
        Assert.StartsWith("LightningDB 0.23.1 over ", engine, StringComparison.Ordinal);
        Assert.Contains($"(LMDB {LmdbNativeLibrary.LmdbVersion})", engine, StringComparison.Ordinal);
        if (LmdbNativeLibrary.IsDebianFallback)
        {
            // The reason is the loader's, read at run time: on Debian 12 a glibc symbol version the bundled LMDB needs.
            Assert.Matches(@"over Debian's liblmdb\.so\.0 \(LMDB 0\.9\.\d+\): the bundled LMDB \d+\.\d+\.\d+ (needs GLIBC_\d+\.\d+|did not load: .+)$", engine);
        }
        else
        {
            Assert.Contains("over its bundled LMDB 1.", engine, StringComparison.Ordinal);
        }

        // One LMDB library in the process, and the one named: the bundled liblmdb.so, or Debian's liblmdb.so.0.x.
        if (OperatingSystem.IsLinux())
        {
            string[] mapped = [.. File.ReadLines("/proc/self/maps")
                .Where(line => line.Contains('/', StringComparison.Ordinal))
                .Select(line => line[line.IndexOf('/', StringComparison.Ordinal)..])
                .Where(file => Path.GetFileName(file).StartsWith("liblmdb", StringComparison.Ordinal))
                .Distinct()];
            output.WriteLine(string.Join(", ", mapped));
            string only = Assert.Single(mapped);
            Assert.True(
                LmdbNativeLibrary.IsDebianFallback
                    ? Path.GetFileName(only).StartsWith("liblmdb.so.0", StringComparison.Ordinal)
                    : Path.GetFileName(only) == "liblmdb.so",
                only);
        }
    }

    [Fact]
    public void LightningDBs_own_calls_reach_the_library_chosen()
    {
        LmdbNativeLibrary.EnsureLoaded();
        Assert.NotEqual(0, LmdbApi.mdb_version(out int major, out int minor, out int patch));

        Assert.Equal(LmdbNativeLibrary.LmdbVersion, new Version(major, minor, patch));
    }

    [Fact]
    public void Over_LMDB_0_9_the_functions_it_lacks_are_exactly_LMDB_1_0s_additions()
    {
        LmdbNativeLibrary.EnsureLoaded();
        nint library = LmdbNativeLibrary.Handle;
        string[] imports = [.. typeof(LmdbApi).GetMethods(BindingFlags.Public | BindingFlags.Static)
            .Select(method => method.Name)
            .Where(name => name.StartsWith("mdb_", StringComparison.Ordinal) || name.StartsWith("lmdb_", StringComparison.Ordinal))
            .Distinct()
            .Order(StringComparer.Ordinal)];
        string[] absent = [.. imports.Where(name => !NativeLibrary.TryGetExport(library, name, out _))];
        output.WriteLine($"{imports.Length} imports; absent here: {string.Join(", ", absent)}");

        // The row's suites run over this library here, so a call to any of these would have thrown EntryPointNotFoundException.
        // Over the bundled LMDB 1.0, at most the browser-only shims (compiled from the package's wasm sources) are absent.
        string[] allowed = LmdbNativeLibrary.IsDebianFallback ? s_absentFromLmdb09 : ["lmdb_setup_checksum", "lmdb_setup_encryption"];
        Assert.Subset(new HashSet<string>(allowed), new HashSet<string>(absent));
        Assert.True(!LmdbNativeLibrary.IsDebianFallback || absent.SequenceEqual(s_absentFromLmdb09), string.Join(", ", absent));
        Assert.Contains("mdb_get", imports);
    }
}
