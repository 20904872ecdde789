using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Stores.Memory;

/// <summary>The floor's ordered entries against <see cref="SortedDictionary{TKey, TValue}"/>, over enough keys to split and empty its blocks.</summary>
public sealed class MemoryStoreTests
{
    [Fact]
    public void Ordered_entries_read_from_any_start_as_a_sorted_dictionary_does_through_splits_replacements_and_removals()
    {
        var random = new Random(20261127);
        var entries = new OrderedEntries();
        var expected = new SortedDictionary<byte[], byte[]>(ByteKeys.Comparer);
        for (int step = 0; step < 20_000; step++)
        {
            // Short keys over a small alphabet, so that adds land beside stored keys and removals find keys to remove.
            byte[] key = RandomKey(random);
            byte[] value = BitConverter.GetBytes(step);
            switch (random.Next(4))
            {
                case 0 when expected.Remove(key):
                    entries.Remove(key);
                    break;
                case 1 when expected.ContainsKey(key):
                    expected[key] = value;
                    entries.Replace(key, value);
                    break;
                default:
                    if (expected.TryAdd(key, value))
                    {
                        entries.Add(key, value);
                    }

                    break;
            }

            if (step % 500 == 0)
            {
                byte[] start = RandomKey(random);
                Assert.Equal(expected.Where(stored => ByteKeys.Comparer.Compare(stored.Key, start) >= 0), entries.From(start));
            }
        }

        Assert.Equal(expected, entries.From([]));
        Assert.InRange(expected.Count, 1_000, int.MaxValue);
    }

    [Fact]
    public void A_key_added_twice_or_removed_or_replaced_when_absent_is_refused_because_the_dictionary_and_the_order_would_disagree()
    {
        var entries = new OrderedEntries();
        Assert.Throws<InvalidOperationException>(() => entries.Remove([1]));
        entries.Add([1], [10]);

        Assert.Throws<InvalidOperationException>(() => entries.Add([1], [11]));
        Assert.Throws<InvalidOperationException>(() => entries.Remove([2]));
        Assert.Throws<InvalidOperationException>(() => entries.Replace([0], [12]));
        Assert.Equal([KeyValuePair.Create<byte[], byte[]>([1], [10])], entries.From([]));
    }

    [Fact]
    public void Deleted_keys_and_values_of_another_length_show_in_the_memory_floor_s_scans()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        store.PutMany(Enumerable.Range(0, 2_000).Select(i => KeyValuePair.Create(Key(i), new byte[] { 1 })));
        for (int i = 0; i < 2_000; i += 3)
        {
            store.Delete(Key(i));
        }

        store.Put(Key(4), [2, 2]);

        Assert.Equal(
            Enumerable.Range(1_000, 1_000).Where(i => i % 3 != 0).Take(100).Select(Key),
            store.ScanFrom(Key(1_000), 100).Select(entry => entry.Key));
        Assert.Equal([2, 2], store.ScanFrom(Key(4), 1).Single().Value);
    }

    private static byte[] RandomKey(Random random)
    {
        byte[] key = new byte[random.Next(1, 4)];
        for (int i = 0; i < key.Length; i++)
        {
            key[i] = (byte)random.Next(16);
        }

        return key;
    }

    // Big-endian, so that byte order is number order.
    private static byte[] Key(int i) => [(byte)(i >> 8), (byte)i];
}
