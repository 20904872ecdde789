namespace KvBench.Testing;

/// <summary>Bytes from a fixed random stream, so a failing case fails the same way on every run.</summary>
public static class TestData
{
    /// <summary><paramref name="length"/> bytes of random stream <paramref name="stream"/>.</summary>
    public static byte[] Bytes(int length, int stream)
    {
        byte[] bytes = new byte[length];
        new Random(stream).NextBytes(bytes);
        return bytes;
    }

    /// <summary>A short key for <paramref name="index"/>: "k" and the index's four bytes.</summary>
    public static byte[] Key(int index) => [(byte)'k', .. BitConverter.GetBytes(index)];
}
