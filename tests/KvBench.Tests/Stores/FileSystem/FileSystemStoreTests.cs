using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.FileSystem;


namespace KvBench.Tests.Stores.FileSystem;

public sealed class FileSystemStoreTests
{
    [Fact]
    public void No_key_writes_outside_the_store_directory_whatever_bytes_it_holds()
    {
        using var root = new TempDirectory();
        string storeDirectory = root.Combine("store");
        File.WriteAllText(root.Combine("sentinel"), "untouched");
        var random = new Random(20261122);
        List<byte[]> hostile =
        [
            "../escape"u8.ToArray(), "/etc/passwd"u8.ToArray(), ".."u8.ToArray(), "."u8.ToArray(), "a/../../b"u8.ToArray(),
            [0x00], [(byte)'/'], [0x2E, 0x2E, 0x2F, 0x00], "C:\\Windows"u8.ToArray(), "~"u8.ToArray(),
        ];
        for (int i = 0; i < 300; i++)
        {
            byte[] key = new byte[random.Next(1, StoreCatalog.DeclaredCapabilities(FileSystemRow.RowName).MaxKeyBytes + 1)];
            random.NextBytes(key);
            hostile.Add(key);
        }

        using (IKeyValueStore store = StoreCatalog.Open(FileSystemRow.RowName, new StoreOptions { Directory = storeDirectory }))
        {
            foreach (byte[] key in hostile)
            {
                store.Put(key, key);
            }

            Assert.All(hostile, key => Assert.Equal(key, store.Get(key)));
            Assert.Equal(hostile.Distinct(new ByteArrayComparer()).Count(), store.ScanPrefix(ReadOnlyMemory<byte>.Empty).Count());
        }

        Assert.Equal(["sentinel", "store"], Directory.EnumerateFileSystemEntries(root.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        Assert.Equal("untouched", File.ReadAllText(root.Combine("sentinel")));
        Assert.All(
            Directory.EnumerateFileSystemEntries(storeDirectory, "*", SearchOption.AllDirectories),
            path =>
            {
                Assert.StartsWith(storeDirectory + Path.DirectorySeparatorChar, Path.GetFullPath(path), StringComparison.Ordinal);
                Assert.True(Path.GetFileName(path).Length <= 255, $"'{path}' has a name over 255 bytes.");
            });
    }

    private sealed class ByteArrayComparer : IEqualityComparer<byte[]>
    {
        public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(byte[] obj) => obj.Length;
    }
}
