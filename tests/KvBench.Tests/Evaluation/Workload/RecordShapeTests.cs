using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Memory;


namespace KvBench.Tests.Evaluation.Workload;

/// <summary>Record sets with key and value lengths that vary by record, and keys under prefixes.</summary>
public sealed class RecordShapeTests
{
    private const int Indexes = 100_000;

    private static readonly RecordSet s_variable = new(
        LengthDistribution.Range(9, 40),
        KeyShape.Random,
        LengthDistribution.Parse("70%:8,20%:300,10%:2KiB"),
        number: 5);

    private static readonly RecordSet s_prefixed = new(LengthDistribution.Range(12, 30), new KeyShape(64), LengthDistribution.Range(8, 100), number: 6);

    [Fact]
    public void Fixed_lengths_give_the_same_bytes_as_the_one_length_constructor()
    {
        var old = new RecordSet(valueBytes: 128, number: 3);
        var shaped = new RecordSet(LengthDistribution.Fixed(9), KeyShape.Random, LengthDistribution.Fixed(128), number: 3);

        Assert.Equal(old.Key(77), shaped.Key(77));
        Assert.Equal(old.Value(77, 5), shaped.Value(77, 5));
        Assert.Equal((9, 128), (shaped.KeyBytes, shaped.ValueBytes));
    }

    [Fact]
    public void Variable_lengths_are_the_record_s_own_and_keys_stay_unique_and_invertible()
    {
        AssertUniqueAndInvertible(s_variable);
        int[] keyLengths = [.. Enumerable.Range(0, 10_000).Select(i => s_variable.KeyLength(i))];
        int[] valueLengths = [.. Enumerable.Range(0, 10_000).Select(i => s_variable.ValueLength(i))];
        Assert.Equal((9, 40), (keyLengths.Min(), keyLengths.Max()));
        Assert.Contains(8, valueLengths);
        Assert.Contains(2048, valueLengths);
        Assert.All(Enumerable.Range(0, 1_000), i =>
            Assert.Equal((s_variable.KeyLength(i), s_variable.ValueLength(i)), (s_variable.Key(i).Length, s_variable.Value(i).Length)));
        Assert.Equal(s_variable.ValueLength(123), new RecordSet(s_variable.KeyLengths, KeyShape.Random, s_variable.ValueLengths, number: 5).ValueLength(123));
        Assert.Throws<InvalidOperationException>(() => s_variable.ValueBytes);
        Assert.Equal((40, 2048), (s_variable.MaxKeyBytes, s_variable.MaxValueBytes));
    }

    [Fact]
    public void Prefixed_keys_stay_unique_and_invertible_and_are_ordered_by_index_under_their_prefix()
    {
        AssertUniqueAndInvertible(s_prefixed);
        Assert.Equal("p07/"u8.ToArray(), s_prefixed.Prefix(7));
        for (int group = 0; group < 64; group += 9)
        {
            byte[][] keys = [.. Enumerable.Range(0, 200).Select(n => s_prefixed.Key(group + (64L * n)))];
            Assert.All(keys, key =>
                Assert.StartsWith(
                    "p" + group.ToString("00", System.Globalization.CultureInfo.InvariantCulture) + "/",
                    System.Text.Encoding.ASCII.GetString(key[..4]),
                    StringComparison.Ordinal));
            Assert.Equal(keys, keys.Order(ByteKeys.Comparer));
        }

        Assert.False(s_prefixed.TryIndexOf([.. "p08/"u8, .. s_prefixed.Key(7).AsSpan(4)], out _));
    }

    [Fact]
    public void A_prefix_scan_of_a_group_returns_exactly_that_group_s_records()
    {
        using IKeyValueStore store = StoreCatalog.Open(MemoryRow.RowName, new StoreOptions { Directory = "unused" });
        s_prefixed.Load(store, 5_000, batchSize: 500);
        Assert.True(s_prefixed.Verify(store, 5_000).Ok);

        long[] scanned = [.. store.ScanPrefix(s_prefixed.Prefix(13)).Select(entry =>
        {
            Assert.True(s_prefixed.TryIndexOf(entry.Key, out long index));
            Assert.Equal(0UL, s_prefixed.VersionOf(index, entry.Value));
            return index;
        })];

        Assert.Equal(Enumerable.Range(0, 5_000).Where(i => i % 64 == 13).Select(i => (long)i), scanned);
    }

    [Fact]
    public void Versions_round_trip_at_every_length_and_another_record_s_or_a_torn_value_is_refused()
    {
        foreach (RecordSet records in (RecordSet[])[s_variable, s_prefixed])
        {
            for (long index = 0; index < 3_000; index++)
            {
                ulong version = (ulong)index * 1_000_003;
                byte[] value = records.Value(index, version);
                Assert.Equal(records.ValueLength(index), value.Length);
                Assert.True(records.TryReadVersion(index, value, out ulong read));
                Assert.Equal(version, read);
                Assert.Equal(version, records.VersionOf(index, value));
                Assert.NotEqual(records.Value(index, version + 1), value);

                Assert.False(records.TryReadVersion(index, value.AsSpan(0, value.Length - 1), out _));
                if (value.Length <= ValueVersion.MaxStampBytes)
                {
                    // Every byte is the stamp: a changed byte is another version, which the runner checks against those issued.
                    continue;
                }

                byte[] torn = (byte[])value.Clone();
                torn[^1] ^= 1;
                Assert.False(records.TryReadVersion(index, torn, out _), $"record {index}, {value.Length} bytes, last byte changed");
                Assert.Null(records.VersionOf(index, torn));
            }

            // A value of only its 8-byte stamp reads as some version of any record of its length; longer ones carry the record.
            long record = Enumerable.Range(0, 10_000).First(i => records.ValueLength(i) > ValueVersion.MaxStampBytes);
            long other = Enumerable.Range((int)record + 1, 10_000).First(i => records.ValueLength(i) == records.ValueLength(record));
            Assert.False(records.TryReadVersion(record, records.Value(other), out _));
            Assert.Null(records.VersionOf(record, records.Value(other)));
        }
    }

    [Theory]
    [InlineData("8", "random", "at least 9 bytes")]
    [InlineData("8..20", "random", "at least 9 bytes")]
    [InlineData("11", "prefixed:64", "at least 12 bytes")]
    [InlineData("12", "prefixed:1000", "at least 13 bytes")]
    public void A_key_shorter_than_its_shape_needs_is_refused_with_the_minimum(string keyBytes, string shape, string reason)
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() =>
            new RecordSet(LengthDistribution.Parse(keyBytes), KeyShape.Parse(shape), LengthDistribution.Fixed(128)));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_value_too_short_for_its_version_stamp_is_refused()
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() =>
            new RecordSet(LengthDistribution.Fixed(9), KeyShape.Random, LengthDistribution.Range(0, 100)));

        Assert.Contains("at least 8 bytes", error.Message, StringComparison.Ordinal);
    }

    private static void AssertUniqueAndInvertible(RecordSet records)
    {
        var seen = new HashSet<string>(Indexes);
        for (long index = 0; index < Indexes; index++)
        {
            byte[] key = records.Key(index);
            Assert.True(seen.Add(Convert.ToHexString(key)), $"record {index}'s key repeats another's");
            Assert.True(records.TryIndexOf(key, out long found) && found == index, $"record {index}'s key led to {found}");
        }
    }
}

/// <summary>A record's value at a version, as a new array.</summary>
internal static class RecordSetVersions
{
    public static byte[] Value(this RecordSet records, long index, ulong version)
    {
        byte[] value = new byte[records.ValueLength(index)];
        records.WriteValue(index, version, value);
        return value;
    }
}
