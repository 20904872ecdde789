using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Sqlite;

namespace KvBench.Tests.Stores.Conformance.Failures;

/// <summary>
/// KvBench.Testing's disk-full suite over every file-backed row, with what only KvBench's rows know: the free space a row
/// keeps for itself, and which rows refuse writes until reopened; and kvbench's own report of a full disk.
/// </summary>
[Trait("Category", "DiskFull")]
public sealed class DiskFullTests : DiskFullSuite, IClassFixture<RowHostsFixture>
{
    public static TheoryData<string> PersistentRowsUnderTest => Rows.Persistent;

    [Fact]
    public async Task Kvbench_prints_one_line_and_exits_with_the_full_code()
    {
        using SmallFileSystem disk = Mount(8L << 20);

        CliRunResult load = await KvBenchCli.Locate().RunAsync(
            ["load", "--store", SqliteRow.WalName, "--dir", disk.Combine("store"), "--records", "10000", "--value-bytes", "4096", "--batch", "1"],
            TimeSpan.FromSeconds(60));

        Assert.Equal(ExitCodes.StoreFull, load.ExitCode);
        string line = Assert.Single(load.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"kvbench: {SqliteRow.WalName} at ", line, StringComparison.Ordinal);
        Assert.Contains("out of disk space", line, StringComparison.Ordinal);
    }

    protected override IKeyValueStore Open(string name, StoreOptions options) => StoreCatalog.Open(name, options);

    protected override long FreeSpaceReserveBytes(IKeyValueStore store) => ((StoreAdapter)store).FreeSpaceReserveBytes;

    protected override bool KeepsDiskFullErrorUntilReopen(string name) => StoreCatalog.Row(name).KeepsDiskFullErrorUntilReopen;
}
