using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Stores.Conformance.Failures;

/// <summary>
/// Every file-backed row on a small file system of its own: filled until a write fails, which must be a
/// <see cref="StoreFullException"/>; every write acknowledged before it still reads back, in the same open and after a
/// reopen; once space is freed, the store takes writes again.
/// </summary>
[Trait("Category", "DiskFull")]
public sealed class DiskFullTests : IClassFixture<RowHostsFixture>
{
    /// <summary>Room for a row's reserve (FASTER's is 144 MiB) and the headroom written into.</summary>
    private const long FileSystemBytes = 320L << 20;

    /// <summary>The free space, above a row's reserve, that the test writes into: a few thousand records.</summary>
    private const long HeadroomBytes = 12L << 20;

    private const int ValueBytes = 4096;

    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public void A_full_disk_fails_the_write_with_the_typed_error_keeps_every_acknowledged_write_and_recovers_when_space_is_freed(string name)
    {
        using var disk = new SmallFileSystem(FileSystemBytes);
        var options = new StoreOptions { Directory = disk.Combine("store") };
        var acknowledged = new List<KeyValuePair<byte[], byte[]>>();
        IKeyValueStore store = StoreCatalog.Open(name, options);
        try
        {
            long reserve = ((StoreAdapter)store).FreeSpaceReserveBytes;
            string ballast = disk.Ballast(disk.FreeBytes - reserve - HeadroomBytes);

            Exception? failure = null;
            // FASTER holds up to 64 MiB in memory before it writes to the disk, so the bound is the whole file system.
            for (int i = 0; failure is null && i < FileSystemBytes / ValueBytes; i++)
            {
                KeyValuePair<byte[], byte[]> record = new(TestData.Key(i), TestData.Bytes(ValueBytes, stream: i));
                try
                {
                    store.Put(record.Key, record.Value);
                    acknowledged.Add(record);
                }
                catch (Exception e)
                {
                    failure = e;
                }
            }

            StoreFullException full = Assert.IsType<StoreFullException>(failure);
            Assert.Equal(name, full.StoreName);
            Assert.NotEmpty(acknowledged);
            AssertHolds(store, acknowledged);

            File.Delete(ballast);
            if (StoreCatalog.Row(name).KeepsDiskFullErrorUntilReopen)
            {
                store.Dispose();
                store = StoreCatalog.Open(name, options);
                AssertHolds(store, acknowledged);
            }

            KeyValuePair<byte[], byte[]> afterFreeing = new(TestData.Key(-1), TestData.Bytes(ValueBytes, stream: -1));
            store.Put(afterFreeing.Key, afterFreeing.Value);
            acknowledged.Add(afterFreeing);

            // FASTER acknowledges at Flush; for the others this is a no-op or a sync of what is already written.
            store.Flush();
        }
        finally
        {
            store.Dispose();
        }

        using IKeyValueStore reopened = StoreCatalog.Open(name, options);
        AssertHolds(reopened, acknowledged);
    }

    [Fact]
    public async Task Kvbench_prints_one_line_and_exits_with_the_full_code()
    {
        using var disk = new SmallFileSystem(8L << 20);

        CliRunResult load = await KvBenchCli.Locate().RunAsync(
            ["load", "--store", SqliteRow.WalName, "--dir", disk.Combine("store"), "--records", "10000", "--value-bytes", $"{ValueBytes}", "--batch", "1"],
            TimeSpan.FromSeconds(60));

        Assert.Equal(ExitCodes.StoreFull, load.ExitCode);
        string line = Assert.Single(load.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"kvbench: {SqliteRow.WalName} at ", line, StringComparison.Ordinal);
        Assert.Contains("out of disk space", line, StringComparison.Ordinal);
    }

    private static void AssertHolds(IKeyValueStore store, IReadOnlyList<KeyValuePair<byte[], byte[]>> records)
    {
        foreach (KeyValuePair<byte[], byte[]> record in records)
        {
            Assert.Equal(record.Value, store.Get(record.Key));
        }
    }
}
