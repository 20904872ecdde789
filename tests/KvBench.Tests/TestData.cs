namespace KvBench.Tests;

/// <summary>Bytes from a fixed random stream, so a failing case fails the same way on every run.</summary>
public static class TestData
{
    public static byte[] Bytes(int length, int stream)
    {
        byte[] bytes = new byte[length];
        new Random(stream).NextBytes(bytes);
        return bytes;
    }

    public static byte[] Key(int index) => [(byte)'k', .. BitConverter.GetBytes(index)];
}
