using KvBench.Stores.Lmdb;

using LightningDB;



namespace KvBench.Tests.Stores.Lmdb;

/// <summary>The map-resize protocol and the one-open-per-process rule, driven on <see cref="LmdbEnvironment"/> without the adapter.</summary>
public sealed class LmdbEnvironmentTests(ITestOutputHelper output)
{
    /// <summary>Sixteen 4 KiB pages: LMDB's meta pages, the main database's root and a few leaves, then MDB_MAP_FULL.</summary>
    private const long TinyMapBytes = 64 * 1024;

    private const EnvironmentOpenFlags ReadWrite = EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.NoSync;

    private const EnvironmentOpenFlags ReadOnly = EnvironmentOpenFlags.NoThreadLocalStorage | EnvironmentOpenFlags.ReadOnly;

    [Fact]
    public void A_tiny_map_grows_on_MAP_FULL_across_many_writes_and_every_record_reads_back()
    {
        const int Count = 20_000;
        using var directory = new TempDirectory();
        using var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);
        Assert.Equal(TinyMapBytes, environment.MapBytes);

        for (int i = 0; i < Count; i++)
        {
            var put = new LmdbPut(TestData.Key(i), ValueOf(i));
            environment.Write(ref put);
        }

        for (int i = 0; i < Count; i++)
        {
            Assert.Equal(ValueOf(i), Get(environment, TestData.Key(i)));
        }

        Assert.Null(Get(environment, TestData.Key(Count)));
        Assert.True(environment.MapResizes > 0);
        AssertEachResizeAtLeastDoubled(environment);
        output.WriteLine(
            $"{Count:N0} records of {ValueOf(0).Length} bytes from a {TinyMapBytes:N0}-byte map: " +
                $"{environment.MapResizes} resizes to {environment.MapBytes:N0} bytes.");
    }

    [Fact]
    public void A_transaction_larger_than_the_map_grows_it_once_with_room_for_its_pages()
    {
        using var directory = new TempDirectory();
        using var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);
        KeyValuePair<byte[], byte[]>[] items = [
            .. Enumerable.Range(0, 1024).Select(i => KeyValuePair.Create(TestData.Key(i), TestData.Bytes(4000, stream: i)))];

        var putAll = new LmdbPutAll(items);
        environment.Write(ref putAll);

        Assert.Equal(1, environment.MapResizes);
        Assert.True(environment.MapBytes >= TinyMapBytes + (2 * putAll.Bytes), $"map {environment.MapBytes:N0} bytes for {putAll.Bytes:N0} bytes written");
        Assert.All(items, item => Assert.Equal(item.Value, Get(environment, item.Key)));
    }

    [Fact]
    public async Task Writers_meeting_MAP_FULL_together_grow_the_map_once_per_size_while_readers_read()
    {
        const int Writers = 4;
        const int PerWriter = 3_000;
        using var directory = new TempDirectory();
        using var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);
        static byte[] KeyOf(int writer, int i) => [(byte)writer, .. BitConverter.GetBytes(i)];

        Task[] writers = [.. Enumerable.Range(0, Writers).Select(writer => Task.Run(() =>
        {
            for (int i = 0; i < PerWriter; i++)
            {
                var put = new LmdbPut(KeyOf(writer, i), ValueOf(i));
                environment.Write(ref put);
            }
        }))];
        Task[] readers = [.. Enumerable.Range(0, Writers).Select(writer => Task.Run(() =>
        {
            while (!writers[writer].IsCompleted)
            {
                for (int i = 0; i < PerWriter; i += 101)
                {
                    byte[]? value = Get(environment, KeyOf(writer, i));
                    Assert.True(value is null || value.AsSpan().SequenceEqual(ValueOf(i)));
                }
            }
        }))];
        await Task.WhenAll([.. writers, .. readers]);

        // A writer that met MDB_MAP_FULL after another had already grown the map retries at the new size instead of
        // growing again, so concurrent failures do not multiply the resizes.
        AssertEachResizeAtLeastDoubled(environment);
        for (int writer = 0; writer < Writers; writer++)
        {
            for (int i = 0; i < PerWriter; i++)
            {
                Assert.Equal(ValueOf(i), Get(environment, KeyOf(writer, i)));
            }
        }
    }

    [Fact]
    public void A_reopened_environment_adopts_the_grown_map_unless_asked_for_more()
    {
        using var directory = new TempDirectory();
        long grown;
        using (var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes))
        {
            for (int i = 0; i < 2_000; i++)
            {
                var put = new LmdbPut(TestData.Key(i), ValueOf(i));
                environment.Write(ref put);
            }

            grown = environment.MapBytes;
            Assert.True(grown > TinyMapBytes);
        }

        using (var reopened = new LmdbEnvironment(directory.Path, ReadOnly, TinyMapBytes))
        {
            Assert.Equal(grown, reopened.MapBytes);
            Assert.Equal(0, reopened.MapResizes);
            Assert.Equal(ValueOf(1_999), Get(reopened, TestData.Key(1_999)));
        }

        using var larger = new LmdbEnvironment(directory.Path, ReadWrite, 2 * grown);
        Assert.Equal(2 * grown, larger.MapBytes);
    }

    [Fact]
    public void A_second_open_in_this_process_fails_until_the_first_is_disposed()
    {
        using var directory = new TempDirectory();
        var first = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);

        InvalidOperationException error = Assert.Throws<InvalidOperationException>(() => new LmdbEnvironment(directory.Path + "/", ReadOnly, TinyMapBytes));
        Assert.Contains(directory.Path, error.Message, StringComparison.Ordinal);

        first.Dispose();
        using var second = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);

        // Disposing the first again must not release the second's registration.
        first.Dispose();
        Assert.Throws<InvalidOperationException>(() => new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes));
    }

    [Fact]
    public void An_open_that_fails_leaves_the_directory_free_to_open()
    {
        using var directory = new TempDirectory();

        // Read-only over a directory with no environment: mdb_env_open fails (ENOENT).
        LmdbException error = Assert.Throws<LmdbException>(() => new LmdbEnvironment(directory.Path, ReadOnly, TinyMapBytes));
        Assert.Equal(LmdbException.NoEntryErrno, error.Code);

        using var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);
        var put = new LmdbPut([1], [1]);
        environment.Write(ref put);
    }

    [Fact]
    public void Readers_pooled_before_a_resize_read_the_grown_map_after_it()
    {
        using var directory = new TempDirectory();
        using var environment = new LmdbEnvironment(directory.Path, ReadWrite, TinyMapBytes);
        var first = new LmdbPut(TestData.Key(0), ValueOf(0));
        environment.Write(ref first);

        // A read leaves its transaction reset in the pool; the writes then remap under it, and the next read renews it.
        Assert.Equal(ValueOf(0), Get(environment, TestData.Key(0)));
        int count = 0;
        while (environment.MapResizes == 0)
        {
            count++;
            var put = new LmdbPut(TestData.Key(count), ValueOf(count));
            environment.Write(ref put);
        }

        Assert.Equal(ValueOf(count), Get(environment, TestData.Key(count)));
        Assert.Equal(ValueOf(0), Get(environment, TestData.Key(0)));
    }

    private static byte[] ValueOf(int i) => TestData.Bytes(100, stream: i);

    private static byte[]? Get(LmdbEnvironment environment, byte[] key)
    {
        var get = new LmdbGet<ToArray, byte[]?>(key, default);
        return environment.Read<LmdbGet<ToArray, byte[]?>, byte[]?>(ref get, "mdb_get");
    }

    /// <summary>
    /// Every resize at least doubles the map (growth) or adopts a larger one (another process, absent here), so a map
    /// resized n times is at least 2^n times the first: more resizes than that means one size was grown twice.
    /// </summary>
    private static void AssertEachResizeAtLeastDoubled(LmdbEnvironment environment) =>
        Assert.True(
            environment.MapBytes >= TinyMapBytes << environment.MapResizes,
            $"{environment.MapResizes} resizes to {environment.MapBytes:N0} bytes from {TinyMapBytes:N0}");

    private readonly struct ToArray : ILmdbFound<byte[]?>
    {
        public byte[]? Found(ReadOnlySpan<byte> value) => value.ToArray();

        public byte[]? Absent() => null;
    }
}
