using System.Buffers;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Lmdb;

using LightningDB;



namespace KvBench.Tests.Stores.Lmdb;

public sealed class LmdbStoreTests(ITestOutputHelper output)
{
    private const long OneMebibyte = 1024 * 1024;

    [Fact]
    public void A_1_MiB_map_grows_to_hold_64_MiB_without_reopening_and_reads_back_byte_exact()
    {
        using var directory = new TempDirectory();
        var records = new RecordSet(valueBytes: 1028);
        const long Count = 65_536;
        byte[] bigKey = [0xB1, 0x6];
        byte[] bigValue = TestData.Bytes(16 * (int)OneMebibyte, stream: 11);

        // What the growth probe asks of the row: options with a start size, which LMDB takes as its map's size.
        StoreRow row = StoreCatalog.Row(LmdbRow.RowName);
        using var store = (LmdbStore)row.Open(row.WithInitialSize(new StoreOptions { Directory = directory.Path }, OneMebibyte));
        Assert.Equal(OneMebibyte, store.MapBytes);
        records.Load(store, Count);
        store.Put(bigKey, bigValue);

        long written = (Count * (records.KeyBytes + records.ValueBytes)) + bigKey.Length + bigValue.Length;
        Assert.True(written >= 64 * OneMebibyte);
        VerificationResult result = records.Verify(store, Count);
        Assert.True(result.Ok, $"{result.Missing} missing, {result.Wrong} wrong, first bad {result.FirstBadIndex}");
        Assert.Equal(bigValue, store.Get(bigKey));
        Assert.True(store.MapBytes > written, $"map {store.MapBytes} bytes for {written} bytes written");
        Assert.InRange(store.MapResizes, 1, 16);
        output.WriteLine(
            $"{LmdbNativeLibrary.Description}: wrote {written:N0} bytes from a {OneMebibyte:N0}-byte map; final map " +
                $"{store.MapBytes:N0} bytes after {store.MapResizes} resizes.");
    }

    [Fact]
    public async Task Writers_growing_the_map_while_readers_read_lose_nothing()
    {
        const int Writers = 4;
        const int PerWriter = 2_000;
        using var directory = new TempDirectory();
        using var store = (LmdbStore)StoreCatalog.Open(LmdbRow.RowName, new LmdbStoreOptions { Directory = directory.Path, InitialMapBytes = OneMebibyte });
        static byte[] KeyOf(int writer, int i) => [(byte)writer, .. BitConverter.GetBytes(i)];
        static byte[] ValueOf(int writer, int i) => TestData.Bytes(1024, stream: (writer * 100_000) + i);

        Task[] writers = [.. Enumerable.Range(0, Writers).Select(writer => Task.Run(() =>
        {
            for (int i = 0; i < PerWriter; i++)
            {
                store.Put(KeyOf(writer, i), ValueOf(writer, i));
            }
        }))];
        Task[] readers = [.. Enumerable.Range(0, Writers).Select(writer => Task.Run(() =>
        {
            var buffer = new ArrayBufferWriter<byte>();
            while (!writers[writer].IsCompleted)
            {
                for (int i = 0; i < PerWriter; i += 97)
                {
                    buffer.ResetWrittenCount();
                    if (store.TryGet(KeyOf(writer, i), buffer))
                    {
                        Assert.Equal(ValueOf(writer, i), buffer.WrittenSpan.ToArray());
                    }
                }

                Assert.All(store.ScanPrefix(new byte[] { (byte)writer }), entry => Assert.Equal(1024, entry.Value.Length));
            }
        }))];
        await Task.WhenAll([.. writers, .. readers]);

        Assert.True(store.MapResizes > 0);
        Assert.Equal(Writers * PerWriter, store.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
        for (int writer = 0; writer < Writers; writer++)
        {
            for (int i = 0; i < PerWriter; i++)
            {
                Assert.Equal(ValueOf(writer, i), store.Get(KeyOf(writer, i)));
            }
        }
    }

    [Fact]
    public void A_512_byte_key_is_refused_with_a_message_naming_511()
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(LmdbRow.RowName, new StoreOptions { Directory = directory.Path });
        store.Put(TestData.Bytes(511, stream: 1), [1]);

        KeyTooLargeException error = Assert.Throws<KeyTooLargeException>(() => store.Put(TestData.Bytes(512, stream: 2), [2]));

        Assert.Equal(511, error.LimitBytes);
        Assert.Contains("511", error.Message, StringComparison.Ordinal);
        Assert.Equal([1], store.Get(TestData.Bytes(511, stream: 1)));
        Assert.Single(store.ScanPrefix(ReadOnlyMemory<byte>.Empty));
    }

    [Fact]
    public void Instances_opened_one_after_another_see_each_others_data_and_keep_the_grown_map()
    {
        using var directory = new TempDirectory();
        var options = new LmdbStoreOptions { Directory = directory.Path, InitialMapBytes = OneMebibyte };
        // A record set's key i depends on i ^ number, so numbers far apart keep the two sets' keys apart.
        var first = new RecordSet(valueBytes: 4000, number: 1);
        var second = new RecordSet(valueBytes: 100, number: 1UL << 40);
        long grownMap;
        using (var store = (LmdbStore)StoreCatalog.Open(LmdbRow.RowName, options))
        {
            first.Load(store, 2_000);
            Assert.True(store.MapResizes > 0);
            grownMap = store.MapBytes;
        }

        using (var store = (LmdbStore)StoreCatalog.Open(LmdbRow.RowName, options))
        {
            Assert.Equal(grownMap, store.MapBytes);
            Assert.True(first.Verify(store, 2_000).Ok);
            second.Load(store, 500);
            grownMap = store.MapBytes;
        }

        // A larger request than the recorded size wins over it.
        using var reopened = (LmdbStore)StoreCatalog.Open(LmdbRow.RowName, options with { InitialMapBytes = 2 * grownMap });
        Assert.Equal(2 * grownMap, reopened.MapBytes);
        Assert.Equal(new VerificationResult(2_000, 0, 0, -1), first.Verify(reopened, 2_000));
        Assert.Equal(new VerificationResult(500, 0, 0, -1), second.Verify(reopened, 500));
    }

    [Fact]
    public void One_environment_opens_once_per_process_and_again_after_dispose()
    {
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path };
        IKeyValueStore store = StoreCatalog.Open(LmdbRow.RowName, options);
        store.Put([1], [1]);

        InvalidOperationException error = Assert.Throws<InvalidOperationException>(() => StoreCatalog.Open(LmdbRow.RowName, options));
        Assert.Contains(directory.Path, error.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() =>
            StoreCatalog.Open(LmdbRow.RowName, options with { Directory = directory.Path + "/", Access = StoreAccess.ReadOnly }));

        store.Dispose();
        using IKeyValueStore reopened = StoreCatalog.Open(LmdbRow.RowName, options);
        Assert.Equal([1], reopened.Get([1]));
    }

    [Theory]
    [InlineData(Durability.Buffered, StoreAccess.ReadWrite, EnvironmentOpenFlags.NoSync | EnvironmentOpenFlags.NoThreadLocalStorage)]
    [InlineData(Durability.Synced, StoreAccess.ReadWrite, EnvironmentOpenFlags.NoThreadLocalStorage)]
    [
        InlineData(
            Durability.Buffered,
            StoreAccess.ReadOnly,
            EnvironmentOpenFlags.NoSync | EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.ReadOnly)]
    [InlineData(Durability.Synced, StoreAccess.Secondary, EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.ReadOnly)]
    public void Durability_and_access_choose_the_environment_flags(Durability durability, StoreAccess access, EnvironmentOpenFlags expected)
    {
        const EnvironmentOpenFlags Relevant = EnvironmentOpenFlags.NoSync | EnvironmentOpenFlags.NoMetaSync | EnvironmentOpenFlags.WriteMap
            | EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.ReadOnly;
        using var directory = new TempDirectory();
        using (StoreCatalog.Open(LmdbRow.RowName, new StoreOptions { Directory = directory.Path }))
        {
        }

        using var store = (LmdbStore)StoreCatalog.Open(
            LmdbRow.RowName,
            new StoreOptions { Directory = directory.Path, Durability = durability, Access = access });

        Assert.Equal(expected, store.EnvironmentFlags & Relevant);
        store.Flush();
    }

    [Fact]
    public void TryGet_and_ContainsKey_allocate_nothing_and_Put_only_LightningDBs_transaction_once_warm()
    {
        const int Rounds = 1_000;
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(LmdbRow.RowName, new StoreOptions { Directory = directory.Path });
        byte[] key = TestData.Key(1);
        byte[] missing = TestData.Key(2);
        byte[] value = TestData.Bytes(1028, stream: 3);
        var buffer = new ArrayBufferWriter<byte>(value.Length);
        void Put() => store.Put(key, value);
        void Read()
        {
            buffer.ResetWrittenCount();
            store.TryGet(key, buffer);
            store.ContainsKey(key);
            store.ContainsKey(missing);
        }

        long putBytes = AllocatedPerRound(Put, Rounds);
        long readBytes = AllocatedPerRound(Read, Rounds);

        // What LightningDB allocates to begin and end one write transaction, measured on an environment of its own.
        using var bare = new TempDirectory();
        using var environment = new LightningEnvironment(bare.Path);
        environment.Open(EnvironmentOpenFlags.NoSync);
        long transactionBytes = AllocatedPerRound(() => environment.BeginTransaction().Dispose(), Rounds);

        output.WriteLine($"per Put {putBytes} B, per LightningDB write transaction {transactionBytes} B, per TryGet + 2 ContainsKey {readBytes} B");
        Assert.Equal(0, readBytes);
        Assert.True(transactionBytes > 0);
        Assert.Equal(transactionBytes, putBytes);
        Assert.Equal(value, buffer.WrittenSpan.ToArray());
    }

    [Fact]
    public void The_declared_capabilities_are_the_ones_measured_here()
    {
        StoreCapabilities declared = StoreCatalog.DeclaredCapabilities(LmdbRow.RowName);

        Assert.Null(StoreCatalog.UnavailableReason(LmdbRow.RowName));
        Assert.Equal(511, declared.MaxKeyBytes);
        Assert.Equal(MultiProcessLevel.Shared, declared.MultiProcess);
        Assert.True(declared.GrowsWithoutRestart);
        Assert.True(declared.OrderedPrefixScan);
        Assert.Equal(DurabilityTiers.All, declared.Durability);
        Assert.Equal(LmdbNativeLibrary.IsDebianFallback ? 0 : 1, LmdbNativeLibrary.LmdbVersion.Major);
    }

    /// <summary>Bytes this thread allocates per call of <paramref name="round"/>, after as many calls to warm it.</summary>
    private static long AllocatedPerRound(Action round, int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            round();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < rounds; i++)
        {
            round();
        }

        long total = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, total % rounds);
        return total / rounds;
    }
}
