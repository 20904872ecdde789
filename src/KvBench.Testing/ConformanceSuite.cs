using System.Buffers;
using System.Runtime.InteropServices;

using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// The contract every store honours (put, get, delete, scans, limits, typed errors, read-only opens, dispose, threads),
/// written once: KvBench runs it over every row of its catalog, and a team over its own store by deriving
/// <see cref="ConformanceSuite{TDefinition}"/>. A derived class opens the stores (<see cref="StoreSuite.Open(string,
/// StoreOptions)"/>) and names its rows in three static members that the theories find by name on the class being run
/// (xUnit looks a <c>MemberData</c> member up on the test class and its base classes).
/// </summary>
public abstract class ConformanceSuite : StoreSuite
{
    /// <summary>The longest key or value the suite writes for real; past it, a limit is checked only by refusal.</summary>
    private const int LargestWrittenBytes = 4 * 1024 * 1024;

    /// <summary>
    /// Byte arrays compared as spans: xUnit compares the arrays inside a sequence element by element through its general
    /// comparer, which is slow for keys of <see cref="LargestWrittenBytes"/>.
    /// </summary>
    private static readonly IEqualityComparer<byte[]> s_sameBytes = EqualityComparer<byte[]>.Create(
        (left, right) => left is null || right is null ? left == right : left.AsSpan().SequenceEqual(right),
        bytes => bytes.Length);

    [Theory]
    [MemberData(RowsMember)]
    public void Put_then_get_returns_the_same_bytes(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[] key = TestData.Bytes(9, stream: 1);
        byte[] value = TestData.Bytes(128, stream: 2);

        store.Put(key, value);

        Assert.Equal(value, store.Get(key));
        var buffer = new ArrayBufferWriter<byte>();
        Assert.True(store.TryGet(key, buffer));
        Assert.Equal(value, buffer.WrittenSpan.ToArray());
        Assert.True(store.ContainsKey(key));
        Assert.Equal(name, store.Name);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void Put_overwrites_an_existing_value(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[] key = TestData.Key(7);

        store.Put(key, TestData.Bytes(1028, stream: 3));
        store.Put(key, TestData.Bytes(128, stream: 4));
        store.Put(key, TestData.Bytes(128, stream: 5));

        Assert.Equal(TestData.Bytes(128, stream: 5), store.Get(key));
        Assert.Single(store.ScanPrefix(ReadOnlyMemory<byte>.Empty));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void Delete_reports_whether_something_was_removed(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[] key = TestData.Key(1);
        byte[] other = TestData.Key(2);
        store.Put(key, [1, 2, 3]);
        store.Put(other, [4]);

        Assert.True(store.Delete(key));
        Assert.False(store.Delete(key));
        Assert.False(store.Delete(TestData.Key(3)));
        Assert.Null(store.Get(key));
        Assert.False(store.ContainsKey(key));
        Assert.Equal([4], store.Get(other));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void A_missing_key_is_absent_and_leaves_the_destination_untouched(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        store.Put(TestData.Key(1), [1]);
        var buffer = new ArrayBufferWriter<byte>();

        Assert.Null(store.Get(TestData.Key(2)));
        Assert.False(store.TryGet(TestData.Key(2), buffer));
        Assert.Equal(0, buffer.WrittenCount);
        Assert.False(store.ContainsKey(TestData.Key(2)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void An_empty_value_is_a_value(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[] key = TestData.Key(1);

        store.Put(key, ReadOnlySpan<byte>.Empty);

        Assert.Equal([], store.Get(key)!);
        Assert.True(store.ContainsKey(key));
        Assert.True(store.TryGet(key, new ArrayBufferWriter<byte>()));
        Assert.Equal([], Assert.Single(store.ScanPrefix(key)).Value);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void Keys_and_values_may_hold_any_byte(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] keys = [[0x00], [0x00, 0x00], [0xFF], [0xFF, 0x00, 0xFF], [(byte)'/', (byte)'.', (byte)'.'], [0x00, 0x2F, 0x5C, 0x0A]];
        byte[] everyByte = Enumerable.Range(0, 256).Select(i => (byte)i).ToArray();

        foreach (byte[] key in keys)
        {
            store.Put(key, [.. key, .. everyByte]);
        }

        foreach (byte[] key in keys)
        {
            Assert.Equal<byte>([.. key, .. everyByte], store.Get(key)!);
        }

        Assert.Equal(keys.Length, store.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanPrefix_returns_matches_in_ascending_unsigned_byte_order(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] sorted = PutOrderKeys(store);

        AssertScan(store, [], sorted);
        AssertScan(store, [0x01], [[0x01], [0x01, 0x00], [0x01, 0x00, 0x00], [0x01, 0x80], [0x01, 0xFF]]);
        AssertScan(store, [0x01, 0x00], [[0x01, 0x00], [0x01, 0x00, 0x00]]);
        AssertScan(store, [0xFF], [[0xFF], [0xFF, 0xFF], [0xFF, 0xFF, 0x01]]);
        AssertScan(store, [0xFF, 0xFF], [[0xFF, 0xFF], [0xFF, 0xFF, 0x01]]);
        AssertScan(store, [0x03], []);
        AssertScan(store, [0x01, 0x00, 0x00, 0x00], []);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanPrefix_pages_through_more_entries_than_fit_in_one_read(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] keys = [.. Enumerable.Range(0, 1500).Select(i => (byte[])[0x10, .. BitConverter.GetBytes(i)])];
        store.PutMany(keys.Select(key => new KeyValuePair<byte[], byte[]>(key, key)));
        store.Put([0x11], [0x11]);

        KeyValuePair<byte[], byte[]>[] scanned = [.. store.ScanPrefix(new byte[] { 0x10 })];

        Assert.Equal(keys.Order(ByteKeys.Comparer), scanned.Select(entry => entry.Key));
        Assert.All(scanned, entry => Assert.Equal(entry.Key, entry.Value));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_returns_keys_at_or_after_the_start_in_ascending_unsigned_byte_order(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] sorted = PutOrderKeys(store);

        AssertScanFrom(store, [], int.MaxValue, sorted);
        AssertScanFrom(store, [0x00], int.MaxValue, sorted);
        AssertScanFrom(store, [0x01, 0x00], 3, [[0x01, 0x00], [0x01, 0x00, 0x00], [0x01, 0x80]]);
        AssertScanFrom(store, [0x01, 0x00, 0x00, 0x00], 2, [[0x01, 0x80], [0x01, 0xFF]]);
        AssertScanFrom(store, [0x01, 0x01], 2, [[0x01, 0x80], [0x01, 0xFF]]);
        AssertScanFrom(store, [0x7F], 2, [[0x7F, 0x00], [0x80]]);
        AssertScanFrom(store, [0xFE, 0xFF, 0xFF], int.MaxValue, [[0xFF], [0xFF, 0xFF], [0xFF, 0xFF, 0x01]]);
        AssertScanFrom(store, [0xFF, 0xFF, 0x01], int.MaxValue, [[0xFF, 0xFF, 0x01]]);
        AssertScanFrom(store, [0xFF, 0xFF, 0x01, 0x00], int.MaxValue, []);
        AssertScanFrom(store, [0xFF, 0xFF, 0xFF], int.MaxValue, []);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_returns_at_most_limit_entries(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] sorted = PutOrderKeys(store);
        byte[] start = [0x01, 0x80];
        byte[][] remaining = [.. sorted.SkipWhile(key => ByteKeys.Comparer.Compare(key, start) < 0)];
        Assert.Equal(8, remaining.Length);

        AssertScanFrom(store, start, 0, []);
        AssertScanFrom(store, [], 0, []);
        AssertScanFrom(store, start, 1, [start]);
        AssertScanFrom(store, [], 1, [sorted[0]]);
        AssertScanFrom(store, start, remaining.Length - 1, remaining[..^1]);
        AssertScanFrom(store, start, remaining.Length, remaining);
        AssertScanFrom(store, start, remaining.Length + 1, remaining);
        AssertScanFrom(store, [], sorted.Length, sorted);
        AssertScanFrom(store, [], sorted.Length + 1, sorted);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_with_a_negative_limit_throws_ArgumentOutOfRangeException(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        store.Put(TestData.Key(1), [1]);

        Assert.Throws<ArgumentOutOfRangeException>(() => store.ScanFrom(ReadOnlyMemory<byte>.Empty, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => store.ScanFrom(TestData.Key(1), int.MinValue));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_pages_through_more_entries_than_fit_in_one_read(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        byte[][] keys = [.. Enumerable.Range(0, 1500).Select(i => (byte[])[0x10, .. BitConverter.GetBytes(i)]).Order(ByteKeys.Comparer)];
        store.PutMany(keys.Select(key => new KeyValuePair<byte[], byte[]>(key, key)));

        KeyValuePair<byte[], byte[]>[] scanned = [.. store.ScanFrom(keys[100], 1300)];

        Assert.Equal(keys[100..1400], scanned.Select(entry => entry.Key));
        Assert.All(scanned, entry => Assert.Equal(entry.Key, entry.Value));
        Assert.Equal(keys[1..], store.ScanFrom(keys[1], int.MaxValue).Select(entry => entry.Key));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_a_start_key_longer_than_the_declared_key_limit_returns_the_keys_after_it(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);

        // Where the limit is small enough to write (LMDB's 511 bytes, FileSystem, FASTER), the start is longer than any
        // key the row can hold and its first MaxKeyBytes bytes are themselves a stored key, which sorts before it.
        int longest = Math.Min(store.Capabilities.MaxKeyBytes, LargestWrittenBytes);
        byte[] start = new byte[longest + 89];
        byte[] truncatedStart = start[..longest];
        byte[] justAfter = [.. start[..(longest - 1)], 0x01];
        byte[][] keys = [[0x00], truncatedStart, justAfter, [0x01]];
        store.PutMany(keys.Select((key, i) => KeyValuePair.Create(key, new byte[] { (byte)i })));

        Assert.Equal([justAfter, [0x01]], store.ScanFrom(start, 10).Select(entry => entry.Key), s_sameBytes);
        Assert.Equal([2], Assert.Single(store.ScanFrom(start, 1)).Value);
        Assert.Equal([truncatedStart, justAfter, [0x01]], store.ScanFrom(truncatedStart, 10).Select(entry => entry.Key), s_sameBytes);
    }

    [Theory]
    [MemberData(RowsMember)]
    public void ScanFrom_agrees_with_a_sorted_full_scan_from_random_starts(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);

        // Few distinct bytes, 0x00 and 0xFF among them, so keys share long prefixes and starts often fall between them.
        var random = new Random(20261122);
        byte[] alphabet = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF];
        byte[] RandomKey(int minLength) =>
            [.. Enumerable.Range(0, random.Next(minLength, 9)).Select(_ => alphabet[random.Next(alphabet.Length)])];
        var written = new Dictionary<string, byte[]>();
        for (int i = 0; i < 400; i++)
        {
            byte[] key = RandomKey(minLength: 1);
            byte[] value = TestData.Bytes(random.Next(0, 40), stream: i);
            store.Put(key, value);
            written[Convert.ToHexString(key)] = value;
        }

        foreach (string deleted in written.Keys.Where((_, i) => i % 7 == 0).ToList())
        {
            Assert.True(store.Delete(Convert.FromHexString(deleted)));
            written.Remove(deleted);
        }

        KeyValuePair<byte[], byte[]>[] everything = [.. store.ScanPrefix(ReadOnlyMemory<byte>.Empty)];
        Assert.Equal(written.Keys.Order(StringComparer.Ordinal), everything.Select(entry => Convert.ToHexString(entry.Key)));
        for (int round = 0; round < 200; round++)
        {
            byte[] start = round % 4 == 0 ? everything[random.Next(everything.Length)].Key : RandomKey(minLength: 0);
            int limit = round % 10 == 0 ? everything.Length + 1 : random.Next(0, 120);
            IEnumerable<KeyValuePair<byte[], byte[]>> expected = everything
                .Where(entry => ByteKeys.Comparer.Compare(entry.Key, start) >= 0)
                .Take(limit);

            Assert.Equal(Describe(start, limit, expected), Describe(start, limit, store.ScanFrom(start, limit)));
        }
    }

    [Theory]
    [MemberData(RowsMember)]
    public void PutMany_writes_every_item(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        KeyValuePair<byte[], byte[]>[] items = [.. Enumerable.Range(0, 100).Select(i => KeyValuePair.Create(TestData.Key(i), TestData.Bytes(64, stream: i)))];

        store.PutMany(items);
        store.PutMany([]);

        Assert.All(items, item => Assert.Equal(item.Value, store.Get(item.Key)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void PutMany_with_one_bad_item_writes_nothing(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        store.Put(TestData.Key(0), [0]);
        KeyValuePair<byte[], byte[]>[] items = [
            KeyValuePair.Create(TestData.Key(0), new byte[] { 9 }),
            KeyValuePair.Create(TestData.Key(1), new byte[] { 1 }),
            KeyValuePair.Create(Array.Empty<byte>(), new byte[] { 2 })];

        Assert.Throws<EmptyKeyException>(() => store.PutMany(items));

        Assert.Equal([0], store.Get(TestData.Key(0)));
        Assert.False(store.ContainsKey(TestData.Key(1)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void A_value_of_several_mebibytes_round_trips(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        int length = Math.Min(LargestWrittenBytes, store.Capabilities.MaxValueBytes);
        Assert.True(length >= 1024 * 1024, $"{name} declares values of at most {length} bytes; the contract asks for 1 MiB.");
        byte[] value = TestData.Bytes(length, stream: 6);

        store.Put(TestData.Key(1), value);

        Assert.Equal(value, store.Get(TestData.Key(1)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void A_key_at_the_declared_limit_works_and_one_byte_more_is_refused_naming_the_limit(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        int limit = store.Capabilities.MaxKeyBytes;
        byte[] kept = TestData.Key(1);
        store.Put(kept, [1]);

        // A limit too large to write in a unit test is still written up to LargestWrittenBytes, and refused past it.
        byte[] longest = TestData.Bytes(Math.Min(limit, LargestWrittenBytes), stream: 7);
        store.Put(longest, [2]);
        Assert.Equal([2], store.Get(longest));

        KeyTooLargeException error = WithUntouchedBytes(limit + 1, tooLong => Assert.Throws<KeyTooLargeException>(() => store.Put(tooLong.Span, [3])));

        Assert.Equal(limit, error.LimitBytes);
        Assert.Contains(limit.ToString("N0", System.Globalization.CultureInfo.CurrentCulture), error.Message, StringComparison.Ordinal);
        Assert.Equal([1], store.Get(kept));
        Assert.Equal([2], store.Get(longest));
        store.Put(TestData.Key(2), [4]);
        Assert.Equal(2 + 1, store.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
    }

    [Theory]
    [MemberData(RowsMember)]
    public void A_value_one_byte_over_the_declared_limit_is_refused_naming_the_limit(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        int limit = store.Capabilities.MaxValueBytes;
        store.Put(TestData.Key(1), [1]);

        ValueTooLargeException error = WithUntouchedBytes(limit + 1, tooLong =>
            Assert.Throws<ValueTooLargeException>(() => store.Put(TestData.Key(1), tooLong.Span)));

        Assert.Equal(limit, error.LimitBytes);
        Assert.Equal([1], store.Get(TestData.Key(1)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void An_empty_key_is_refused(string name)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);

        Assert.Throws<EmptyKeyException>(() => store.Put([], [1]));
        Assert.Throws<EmptyKeyException>(() => store.Get([]));
        Assert.Throws<EmptyKeyException>(() => store.ContainsKey([]));
        Assert.Throws<EmptyKeyException>(() => store.TryGet([], new ArrayBufferWriter<byte>()));
        Assert.Throws<EmptyKeyException>(() => store.Delete([]));
        Assert.Empty(store.ScanPrefix(ReadOnlyMemory<byte>.Empty));
    }

    [Theory]
    [MemberData(RowsMember)]
    public void Every_call_after_dispose_throws_ObjectDisposedException(string name)
    {
        using var directory = new TempDirectory();
        IKeyValueStore store = Open(name, directory);
        store.Put(TestData.Key(1), [1]);
        store.Dispose();
        store.Dispose();

        Assert.Throws<ObjectDisposedException>(() => store.Put(TestData.Key(1), [1]));
        Assert.Throws<ObjectDisposedException>(() => store.Get(TestData.Key(1)));
        Assert.Throws<ObjectDisposedException>(() => store.TryGet(TestData.Key(1), new ArrayBufferWriter<byte>()));
        Assert.Throws<ObjectDisposedException>(() => store.ContainsKey(TestData.Key(1)));
        Assert.Throws<ObjectDisposedException>(() => store.Delete(TestData.Key(1)));
        Assert.Throws<ObjectDisposedException>(() => store.ScanPrefix(ReadOnlyMemory<byte>.Empty));
        Assert.Throws<ObjectDisposedException>(() => store.ScanFrom(ReadOnlyMemory<byte>.Empty, 10));
        Assert.Throws<ObjectDisposedException>(() => store.ScanFrom(TestData.Key(1), 0));
        Assert.Throws<ObjectDisposedException>(() => store.PutMany([KeyValuePair.Create(TestData.Key(1), new byte[] { 1 })]));
        Assert.Throws<ObjectDisposedException>(store.Flush);
    }

    [Theory]
    [MemberData(TiersMember)]
    public void Flushed_writes_survive_dispose_and_reopen(string name, Durability durability)
    {
        using var directory = new TempDirectory();
        var options = new StoreOptions { Directory = directory.Path, Durability = durability };
        KeyValuePair<byte[], byte[]>[] items = [.. Enumerable.Range(0, 50).Select(i => KeyValuePair.Create(TestData.Key(i), TestData.Bytes(100, stream: i)))];
        using (IKeyValueStore store = Open(name, options))
        {
            store.PutMany(items[..25]);
            foreach (KeyValuePair<byte[], byte[]> item in items[25..])
            {
                store.Put(item.Key, item.Value);
            }

            store.Delete(items[0].Key);
            store.Flush();
        }

        using IKeyValueStore reopened = Open(name, options);
        Assert.Null(reopened.Get(items[0].Key));
        Assert.All(items[1..], item => Assert.Equal(item.Value, reopened.Get(item.Key)));
        Assert.Equal(items.Length - 1, reopened.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
    }

    [Theory]
    [MemberData(PersistentRowsMember)]
    public void Opening_a_missing_store_to_read_gives_the_typed_error_and_creates_nothing(string name)
    {
        using var directory = new TempDirectory();
        string missing = directory.Combine("missing");
        string empty = Directory.CreateDirectory(directory.Combine("empty")).FullName;

        foreach (StoreAccess access in (StoreAccess[])[StoreAccess.ReadOnly, StoreAccess.Secondary])
        {
            StoreNotFoundException notThere = Assert.Throws<StoreNotFoundException>(() =>
                Open(name, new StoreOptions { Directory = missing, Access = access }));
            StoreNotFoundException notInside = Assert.Throws<StoreNotFoundException>(() =>
                Open(name, new StoreOptions { Directory = empty, Access = access }));

            Assert.Equal(name, notThere.StoreName);
            Assert.Contains(access.ToString(), notInside.Message, StringComparison.Ordinal);
            Assert.False(Directory.Exists(missing), $"{name} created '{missing}' for a {access} open.");
            Assert.Empty(Directory.EnumerateFileSystemEntries(empty));
        }
    }

    [Theory]
    [MemberData(PersistentRowsMember)]
    public void A_store_opened_read_only_reads_and_refuses_writes(string name)
    {
        using var directory = new TempDirectory();
        using (IKeyValueStore writer = Open(name, new StoreOptions { Directory = directory.Path }))
        {
            writer.Put(TestData.Key(1), [1]);
            writer.Flush();
        }

        using IKeyValueStore reader = Open(name, new StoreOptions { Directory = directory.Path, Access = StoreAccess.ReadOnly });
        Assert.Equal([1], reader.Get(TestData.Key(1)));
        Assert.Throws<StoreReadOnlyException>(() => reader.Put(TestData.Key(2), [2]));
        Assert.Throws<StoreReadOnlyException>(() => reader.Delete(TestData.Key(1)));
        Assert.Throws<StoreReadOnlyException>(() => reader.PutMany([KeyValuePair.Create(TestData.Key(3), new byte[] { 3 })]));
        Assert.Equal([1], reader.Get(TestData.Key(1)));
    }

    [Theory]
    [MemberData(RowsMember)]
    public async Task Eight_threads_writing_and_reading_at_once_lose_nothing(string name)
    {
        const int Threads = 8;
        const int KeysPerThread = 250;
        using var directory = new TempDirectory();
        using IKeyValueStore store = Open(name, directory);
        static byte[] KeyOf(int thread, int i) => [(byte)thread, .. BitConverter.GetBytes(i)];
        static byte[] ValueOf(int thread, int i) => TestData.Bytes(64 + (i % 64), stream: (thread * 100_000) + i);

        await Task.WhenAll(Enumerable.Range(0, Threads).Select(thread => Task.Run(() =>
        {
            var buffer = new ArrayBufferWriter<byte>();
            for (int i = 0; i < KeysPerThread; i++)
            {
                store.Put(KeyOf(thread, i), ValueOf(thread, i));
                buffer.ResetWrittenCount();
                Assert.True(store.TryGet(KeyOf(thread, i), buffer));
                Assert.Equal(ValueOf(thread, i), buffer.WrittenSpan.ToArray());

                // Reads of another thread's keys see either nothing yet or exactly its bytes.
                int other = (thread + 1) % Threads;
                byte[]? seen = store.Get(KeyOf(other, i));
                Assert.True(seen is null || seen.AsSpan().SequenceEqual(ValueOf(other, i)));
            }
        })));

        for (int thread = 0; thread < Threads; thread++)
        {
            for (int i = 0; i < KeysPerThread; i++)
            {
                Assert.Equal(ValueOf(thread, i), store.Get(KeyOf(thread, i)));
            }
        }

        Assert.Equal(Threads * KeysPerThread, store.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
    }

    /// <summary>Puts keys that need unsigned byte order (0x00, 0xFF, a key and its extensions), each with a value of the key and 0xAB.</summary>
    /// <returns>The keys in ascending unsigned byte order.</returns>
    private static byte[][] PutOrderKeys(IKeyValueStore store)
    {
        byte[][] keys =
        [
            [0xFF, 0xFF, 0x01], [0x01, 0xFF], [0x80], [0x01], [0x7F, 0x00], [0x01, 0x00], [0xFF],
            [0x01, 0x00, 0x00], [0xFF, 0xFF], [0x02], [0x00, 0x01], [0x01, 0x80],
        ];
        foreach (byte[] key in keys)
        {
            store.Put(key, [.. key, 0xAB]);
        }

        return [.. keys.Order(ByteKeys.Comparer)];
    }

    private static void AssertScanFrom(IKeyValueStore store, byte[] start, int limit, byte[][] expectedKeys)
    {
        KeyValuePair<byte[], byte[]>[] scanned = [.. store.ScanFrom(start, limit)];
        Assert.Equal(Describe(start, limit, expectedKeys.Select(key => KeyValuePair.Create(key, (byte[])[.. key, 0xAB]))), Describe(start, limit, scanned));
    }

    /// <summary>A scan's entries as one line of hex, led by its start and limit, so a failure says which scan differed and where.</summary>
    private static string Describe(byte[] start, int limit, IEnumerable<KeyValuePair<byte[], byte[]>> entries) =>
        $"from [{Convert.ToHexString(start)}] limit {limit}: " + string.Join(
            " ",
            entries.Select(entry => $"{Convert.ToHexString(entry.Key)}={Convert.ToHexString(entry.Value)}"));

    private static void AssertScan(IKeyValueStore store, byte[] prefix, byte[][] expectedKeys)
    {
        KeyValuePair<byte[], byte[]>[] scanned = [.. store.ScanPrefix(prefix)];
        Assert.Equal(expectedKeys, scanned.Select(entry => entry.Key));
        Assert.All(scanned, entry => Assert.Equal([.. entry.Key, 0xAB], entry.Value));
    }

    /// <summary>
    /// Runs <paramref name="action"/> on a span of <paramref name="length"/> bytes of reserved native memory that is
    /// never touched, so a 2 GiB over-limit argument costs address space, not RAM. A store must refuse it by length.
    /// </summary>
    private static unsafe T WithUntouchedBytes<T>(int length, Func<ReadOnlyMemory<byte>, T> action)
    {
        byte* pointer = (byte*)NativeMemory.Alloc((nuint)length);
        try
        {
            using var manager = new UnmanagedMemoryManager(pointer, length);
            return action(manager.Memory);
        }
        finally
        {
            NativeMemory.Free(pointer);
        }
    }

    private sealed unsafe class UnmanagedMemoryManager(byte* pointer, int length) : MemoryManager<byte>
    {
        public override Span<byte> GetSpan() => new(pointer, length);

        public override MemoryHandle Pin(int elementIndex = 0) => new(pointer + elementIndex);

        public override void Unpin()
        {
        }

        protected override void Dispose(bool disposing)
        {
        }
    }
}


/// <summary>
/// The conformance suite over a team's row, <typeparamref name="TDefinition"/>: derive it in a test project, with no
/// members, and every check runs on the team's store.
/// </summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class ConformanceSuite<TDefinition> : ConformanceSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row.</summary>
    public static TheoryData<string> RowsUnderTest => DefinitionRows<TDefinition>.Rows;

    /// <summary>The row with each tier it declares.</summary>
    public static TheoryData<string, Durability> TiersUnderTest => DefinitionRows<TDefinition>.Tiers;

    /// <summary>The row, when it keeps data past a dispose.</summary>
    public static TheoryData<string> PersistentRowsUnderTest => DefinitionRows<TDefinition>.PersistentRows;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);

    /// <inheritdoc/>
    protected override IReadOnlyList<string> KvBenchRowArguments(string name) => DefinitionRows<TDefinition>.KvBenchArguments;
}
