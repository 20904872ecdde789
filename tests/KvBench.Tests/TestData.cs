namespace KvBench.Tests;

/// <summary>Fixed-seed bytes, so a failing case fails the same way on every run.</summary>
public static class TestData
{
    public static byte[] Bytes(int length, int seed)
    {
        byte[] bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    public static byte[] Key(int index) => [(byte)'k', .. BitConverter.GetBytes(index)];
}
