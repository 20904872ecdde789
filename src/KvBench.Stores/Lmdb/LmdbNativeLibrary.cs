using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

using LightningDB;

using LmdbApi = LightningDB.Native.Lmdb;

namespace KvBench.Stores.Lmdb;

/// <summary>
/// Which LMDB library LightningDB calls: the one its package bundles where that loads, Debian's <c>liblmdb.so.0</c> where
/// it does not (Linux only), chosen once per process by a resolver on LightningDB's assembly.
/// </summary>
/// <remarks>
/// <para>
/// LightningDB 0.23.1 bundles LMDB 1.0.1 as <c>runtimes/linux-x64/native/liblmdb.so</c>, built against glibc 2.38; on
/// Debian 12 (glibc 2.36) the loader refuses it. Debian's liblmdb0 (LMDB 0.9.24) exports every function of LMDB's API
/// the row calls (environments, transactions, cursors, put, get, del), so LightningDB's <c>lmdb</c> import is mapped to
/// it there. The functions LMDB 1.0 added (<c>mdb_txn_prepare</c>, checksums, encryption, incremental copies, page
/// size, rollback) are absent from 0.9 and throw <see cref="EntryPointNotFoundException"/>: the row never calls them.
/// </para>
/// <para>
/// LMDB 1.0 writes data format 3, which 0.9 does not read, and the other way round: LMDB 1.0.1 built from the package's
/// own <c>wasm/mdb.c</c> (the LMDB_1.0.1 tag its binaries are built from) and 0.9 each fail to open the other's file
/// with MDB_INVALID ("File is not an LMDB file"); nothing is misread.
/// So a store written where the bundled library loads cannot be opened where the fallback runs, and the reverse.
/// </para>
/// <para>
/// Elsewhere (Windows, macOS, other architectures) only the bundled library is tried: there is no Debian fallback.
/// </para>
/// </remarks>
internal static partial class LmdbNativeLibrary
{
    /// <summary>The library name in LightningDB's <c>[LibraryImport("lmdb")]</c>.</summary>
    private const string ImportName = "lmdb";

    /// <summary>The soname of Debian's liblmdb0.</summary>
    internal const string DebianSoname = "liblmdb.so.0";

    private static readonly Lazy<Resolution> s_resolution = new(Resolve, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>Why no LMDB library loads here, or <see langword="null"/> when one does.</summary>
    public static string? UnavailableReason => s_resolution.Value.UnavailableReason;

    /// <summary>
    /// The package and the library it runs over, for example "LightningDB 0.23.1 over Debian's liblmdb.so.0 (LMDB
    /// 0.9.24): the bundled LMDB 1.0.1 needs GLIBC_2.38".
    /// </summary>
    public static string Description => s_resolution.Value.Description;

    /// <summary>Whether LightningDB runs over Debian's library instead of its own.</summary>
    public static bool IsDebianFallback => s_resolution.Value.Debian;

    /// <summary>The version of the LMDB that loaded, from <c>mdb_version</c>: (0, 9, 24) for Debian's.</summary>
    public static Version LmdbVersion => s_resolution.Value.LmdbVersion ?? throw Unavailable();

    /// <summary>The handle of the library LightningDB's calls reach.</summary>
    public static nint Handle => s_resolution.Value.Handle;

    /// <summary>Chooses the library (once per process) and throws when none loads; call before any LightningDB call.</summary>
    /// <exception cref="DllNotFoundException">Neither the bundled nor (on Linux) Debian's LMDB loads; the message says why.</exception>
    public static void EnsureLoaded()
    {
        if (s_resolution.Value.UnavailableReason is not null)
        {
            throw Unavailable();
        }
    }

    private static DllNotFoundException Unavailable() => new(s_resolution.Value.UnavailableReason);

    private static Resolution Resolve()
    {
        Assembly lightning = typeof(LightningEnvironment).Assembly;
        string package = $"LightningDB {PackageVersion.Of("LightningDB")}";
        nint handle = 0;
        string bundledError;

        // Loaded by its path, not by LightningDB's import name: the runtime's probing for "lmdb" ends with the system's
        // search, which finds Debian's liblmdb.so (from liblmdb-dev) after refusing the bundled file, and would pass it
        // off as the bundled one.
        string? bundled = FindBundled(lightning);
        if (bundled is null)
        {
            bundledError = $"the package has no LMDB library for {RuntimeInformation.RuntimeIdentifier} beside the application";
        }
        else
        {
            try
            {
                handle = NativeLibrary.Load(bundled);
                bundledError = string.Empty;
            }
            catch (Exception error) when (error is DllNotFoundException or BadImageFormatException)
            {
                bundledError = WhyBundledFailed(bundled, error.Message);
            }
        }

        bool debian = false;
        if (handle == 0)
        {
            if (!OperatingSystem.IsLinux() || !NativeLibrary.TryLoad(DebianSoname, out handle))
            {
                string fallback = OperatingSystem.IsLinux()
                    ? $"; Debian's {DebianSoname}, the fallback, is not installed either (apt-get install liblmdb0)"
                    : string.Empty;
                return new Resolution(
                    $"{package}: its LMDB library did not load ({bundledError}){fallback}.",
                    package,
                    Debian: false,
                    LmdbVersion: null,
                    Handle: 0);
            }

            debian = true;
        }

        nint loaded = handle;
        NativeLibrary.SetDllImportResolver(lightning, (name, _, _) => name == ImportName ? loaded : 0);

        // Through LightningDB's own binding, now resolved: the version of the library its calls reach.
        LmdbApi.mdb_version(out int major, out int minor, out int patch);
        var version = new Version(major, minor, patch);
        string description = debian
            ? $"{package} over Debian's {DebianSoname} (LMDB {version}): {bundledError}"
            : $"{package} over its bundled LMDB {version}";
        return new Resolution(null, description, debian, version, loaded);
    }

    /// <summary>
    /// The LMDB library LightningDB's package put beside the application: in a directory the runtime probes for native
    /// assets (the deps.json's <c>runtimes/&lt;rid&gt;/native</c> among them), else beside LightningDB.dll.
    /// </summary>
    private static string? FindBundled(Assembly lightning)
    {
        string fileName = OperatingSystem.IsWindows() ? "lmdb.dll" : OperatingSystem.IsMacOS() ? "lmdb.dylib" : "liblmdb.so";
        string probed = AppContext.GetData("NATIVE_DLL_SEARCH_DIRECTORIES") as string ?? string.Empty;
        return probed.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Append(AppContext.BaseDirectory)
            .Append(Path.GetDirectoryName(lightning.Location) ?? string.Empty)
            .Where(directory => directory.Length > 0)
            .Select(directory => Path.Combine(directory, fileName))
            .FirstOrDefault(File.Exists);
    }

    /// <summary>
    /// The loader's reason for refusing the bundled library at <paramref name="path"/>, from the runtime's message: its
    /// first line that is not a missing file. A missing glibc symbol version reads "the bundled LMDB 1.0.1 needs
    /// GLIBC_2.38", with the LMDB version read from the refused file.
    /// </summary>
    private static string WhyBundledFailed(string path, string message)
    {
        string what = VersionInFile(path) is { } lmdb ? $"the bundled {lmdb}" : $"the bundled {Path.GetFileName(path)}";
        string? refused = message.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Skip(1)
            .FirstOrDefault(line => !line.EndsWith("No such file or directory", StringComparison.Ordinal));
        if (refused is null)
        {
            // A loader that gives one line (Windows: "Unable to load DLL ...: The specified module could not be found").
            return $"{what} did not load: {message.Split('\n')[0].Trim()}";
        }

        return MissingSymbolVersion().Match(refused) is { Success: true } missing
            ? $"{what} needs {missing.Groups["version"].Value}"
            : $"{what} did not load: {refused}";
    }

    /// <summary>"LMDB 1.0.1" from the version string LMDB compiles into its library, or <see langword="null"/>.</summary>
    private static string? VersionInFile(string path)
    {
        try
        {
            return LmdbVersionString().Match(Encoding.Latin1.GetString(File.ReadAllBytes(path))) is { Success: true } found
                ? found.Groups["version"].Value
                : null;
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            return null;
        }
    }

    [GeneratedRegex(@"version `(?<version>[^']+)' not found")]
    private static partial Regex MissingSymbolVersion();

    [GeneratedRegex(@"(?<version>LMDB \d+\.\d+\.\d+): \(")]
    private static partial Regex LmdbVersionString();

    /// <param name="UnavailableReason">Why no library loads, or <see langword="null"/>.</param>
    /// <param name="Description">The package and the library it runs over, or the package alone when none loads.</param>
    /// <param name="Debian">Whether the fallback was taken.</param>
    /// <param name="LmdbVersion">What <c>mdb_version</c> reports; <see langword="null"/> when nothing loaded.</param>
    /// <param name="Handle">The loaded library; 0 when nothing loaded.</param>
    private sealed record Resolution(string? UnavailableReason, string Description, bool Debian, Version? LmdbVersion, nint Handle);
}
