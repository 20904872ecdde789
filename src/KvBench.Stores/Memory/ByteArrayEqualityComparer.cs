namespace KvBench.Stores.Memory;

/// <summary>
/// Equality of byte arrays by content, with span lookups (<see cref="Dictionary{TKey, TValue}.GetAlternateLookup{TAlternateKey}"/>)
/// so a dictionary keyed by arrays is searched with a span and no copy. Shared by the Memory row and its raw baseline.
/// </summary>
internal sealed class ByteArrayEqualityComparer : IEqualityComparer<byte[]>, IAlternateEqualityComparer<ReadOnlySpan<byte>, byte[]>
{
    public static readonly ByteArrayEqualityComparer Instance = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj) => GetHashCode(obj.AsSpan());

    public bool Equals(ReadOnlySpan<byte> alternate, byte[] other) => alternate.SequenceEqual(other);

    public int GetHashCode(ReadOnlySpan<byte> alternate)
    {
        var hash = new HashCode();
        hash.AddBytes(alternate);
        return hash.ToHashCode();
    }

    public byte[] Create(ReadOnlySpan<byte> alternate) => alternate.ToArray();
}
