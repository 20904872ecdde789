using KvBench.Core;


namespace KvBench.Tests.Core;

public sealed class ByteKeysTests
{
    [Theory]
    [InlineData(new byte[] { 0x01 }, new byte[] { 0x02 })]
    [InlineData(new byte[] { 0x01, 0xFF }, new byte[] { 0x02 })]
    [InlineData(new byte[] { 0x01, 0xFE }, new byte[] { 0x01, 0xFF })]
    [InlineData(new byte[] { 0x00, 0xFF, 0xFF }, new byte[] { 0x01 })]
    public void PrefixUpperBound_is_the_smallest_key_past_every_match(byte[] prefix, byte[] expected) =>
        Assert.Equal(expected, ByteKeys.PrefixUpperBound(prefix));

    [Theory]
    [InlineData(new byte[0])]
    [InlineData(new byte[] { 0xFF })]
    [InlineData(new byte[] { 0xFF, 0xFF })]
    public void PrefixUpperBound_is_null_when_nothing_bounds_the_matches(byte[] prefix) =>
        Assert.Null(ByteKeys.PrefixUpperBound(prefix));

    [Fact]
    public void Comparer_orders_unsigned_bytes_shorter_first() =>
        Assert.Equal(
            [[0x00], [0x00, 0x00], [0x7F], [0x80], [0xFF]],
            new byte[][] { [0xFF], [0x80], [0x00, 0x00], [0x7F], [0x00] }.Order(ByteKeys.Comparer));
}
