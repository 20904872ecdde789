using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Tests.Stores.Conformance.Failures;

/// <summary>
/// KvBench.Testing's damaged-file suite over every file-backed row. KvBench's rows answer for engines it does not write:
/// one without checksums may return a damaged value for the verify to find, and one that maps or walks its files
/// unchecked may crash (a row's <see cref="StoreRow.MayCrashOnDamagedFiles"/>); every other outcome is the suite's.
/// </summary>
[Trait("Category", "Damage")]
public sealed class DamagedFileTests : DamagedFileSuite
{
    public static TheoryData<string> PersistentRowsUnderTest => Rows.Persistent;

    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);

    /// <summary>Every file a row wrote but its lock files, which hold no data, whatever the engine.</summary>
    protected override IReadOnlyList<string> DataFiles(string name, string directory) =>
        [.. Directory.EnumerateFiles(directory, "*", SearchOption.AllDirectories).Where(IsData)];

    protected override bool MayReturnDamagedValues(string name) => true;

    protected override bool MayCrashOnDamagedFiles(string name) => StoreCatalog.Row(name).MayCrashOnDamagedFiles;

    private static bool IsData(string path) =>
        Path.GetFileName(path) is not ("LOCK" or "lock.mdb") && !path.EndsWith(".lock", StringComparison.Ordinal);
}
