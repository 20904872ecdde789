using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.RocksDb;


namespace KvBench.Tests.Stores.RocksDb;

public sealed class RocksDbStoreTests
{
    [Fact]
    public void A_second_read_write_open_in_this_process_is_refused_as_locked()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore writer = Open(directory, StoreAccess.ReadWrite);

        StoreLockedException error = Assert.Throws<StoreLockedException>(() => Open(directory, StoreAccess.ReadWrite));

        // RocksDB remembers the LOCK files this process holds and refuses a second one before asking the kernel.
        Assert.Contains("lock hold by current process", error.InnerException!.Message, StringComparison.Ordinal);
        Assert.Equal(RocksDbRow.RowName, error.StoreName);
        writer.Put(TestData.Key(1), [1]);
        Assert.Equal([1], writer.Get(TestData.Key(1)));
    }

    [Fact]
    public async Task A_read_write_open_while_another_process_holds_the_store_is_refused_as_locked()
    {
        using var directory = new TempDirectory();
        using (IKeyValueStore created = Open(directory, StoreAccess.ReadWrite))
        {
            created.Put(TestData.Key(1), [1]);
        }

        // The built CLI, started as a worker, holds the store read-write the way a second KvBench process would.
        var holderOptions = new WorkerOptions { Store = RocksDbRow.RowName, Directory = directory.Path, Name = "holder", Peer = "nobody" };
        await using (WorkerProcess holder = WorkerProcess.Start(KvBenchCli.Locate(), holderOptions))
        {
            Assert.True(await holder.WaitForAsync(WorkerMessage.Ready, TimeSpan.FromSeconds(30)), "The holding process never opened the store.");
            StoreLockedException error = Assert.Throws<StoreLockedException>(() => Open(directory, StoreAccess.ReadWrite));
            Assert.Contains("While lock file", error.InnerException!.Message, StringComparison.Ordinal);
            await holder.FinishAsync(TimeSpan.FromSeconds(30));
        }

        using IKeyValueStore reopened = Open(directory, StoreAccess.ReadWrite);
        Assert.Equal([1], reopened.Get(TestData.Key(1)));
    }

    [Fact]
    public void A_secondary_sees_the_writers_flushed_records_after_catching_up_and_refuses_writes()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore writer = Open(directory, StoreAccess.ReadWrite);
        writer.Put(TestData.Key(1), [1]);
        writer.Flush();

        using (IKeyValueStore secondary = Open(directory, StoreAccess.Secondary))
        {
            Assert.Equal([1], secondary.Get(TestData.Key(1)));

            writer.PutMany([KeyValuePair.Create(TestData.Key(2), new byte[] { 2 }), KeyValuePair.Create(TestData.Key(3), new byte[] { 3 })]);
            writer.Delete(TestData.Key(1));
            writer.Flush();
            Assert.False(secondary.ContainsKey(TestData.Key(2)));

            secondary.Flush();

            Assert.Null(secondary.Get(TestData.Key(1)));
            Assert.Equal([2], secondary.Get(TestData.Key(2)));
            Assert.Equal([TestData.Key(2), TestData.Key(3)], secondary.ScanPrefix("k"u8.ToArray()).Select(entry => entry.Key));
            Assert.Throws<StoreReadOnlyException>(() => secondary.Put(TestData.Key(4), [4]));
            Assert.Throws<StoreReadOnlyException>(() => secondary.Delete(TestData.Key(2)));
            Assert.Throws<StoreReadOnlyException>(() => secondary.PutMany([KeyValuePair.Create(TestData.Key(4), new byte[] { 4 })]));
        }

        Assert.Empty(Directory.EnumerateDirectories(directory.Path, "secondary-*"));
    }

    [Fact]
    public void A_read_only_open_beside_the_writer_reads_what_was_flushed_before_it_opened()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore writer = Open(directory, StoreAccess.ReadWrite);
        writer.Put(TestData.Key(1), [1]);
        writer.Flush();

        using IKeyValueStore reader = Open(directory, StoreAccess.ReadOnly);
        writer.Put(TestData.Key(2), [2]);
        writer.Flush();
        reader.Flush();

        Assert.Equal([1], reader.Get(TestData.Key(1)));
        Assert.False(reader.ContainsKey(TestData.Key(2)));
        Assert.Throws<StoreReadOnlyException>(() => reader.Put(TestData.Key(3), [3]));
    }

    [Fact]
    public void Disposing_the_store_during_a_scan_releases_it_and_the_scan_then_reports_disposal()
    {
        using var directory = new TempDirectory();
        IKeyValueStore store = Open(directory, StoreAccess.ReadWrite);
        store.PutMany(Enumerable.Range(0, 3000).Select(i => KeyValuePair.Create(TestData.Key(i), new byte[] { 1 })));
        using IEnumerator<KeyValuePair<byte[], byte[]>> scan = store.ScanPrefix(ReadOnlyMemory<byte>.Empty).GetEnumerator();
        Assert.True(scan.MoveNext());

        store.Dispose();

        using (IKeyValueStore reopened = Open(directory, StoreAccess.ReadWrite))
        {
            Assert.Equal([1], reopened.Get(TestData.Key(2999)));
        }

        Assert.Throws<ObjectDisposedException>(() =>
        {
            while (scan.MoveNext())
            {
            }
        });
    }

    [Fact]
    public void The_engine_text_names_the_package_and_the_release_its_library_writes_into_the_options_file()
    {
        using var directory = new TempDirectory();
        using (Open(directory, StoreAccess.ReadWrite))
        {
        }

        // RocksDB's C API has no version call; every open writes the library's own release into an OPTIONS file.
        string options = File.ReadAllText(Assert.Single(Directory.EnumerateFiles(directory.Path, "OPTIONS-*")));
        string release = options
            .Split('\n')
            .Select(line => line.Trim())
            .Single(line => line.StartsWith("rocksdb_version=", StringComparison.Ordinal))["rocksdb_version=".Length..];

        string engine = StoreCatalog.Engine(RocksDbRow.RowName);

        // The package version (id RocksDB) begins with the release it bundles, and the library came from its runtimes folder.
        Assert.StartsWith($"RocksDB {release}.", engine, StringComparison.Ordinal);
        Assert.Contains($"(RocksDB {release}, bundled runtimes/", engine, StringComparison.Ordinal);
    }

    private static IKeyValueStore Open(TempDirectory directory, StoreAccess access) =>
        StoreCatalog.Open(RocksDbRow.RowName, new StoreOptions { Directory = directory.Path, Access = access });
}
