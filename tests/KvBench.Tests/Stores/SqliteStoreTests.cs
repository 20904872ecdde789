using System.Buffers;

using KvBench.Core;
using KvBench.Stores;

namespace KvBench.Tests.Stores;

public sealed class SqliteStoreTests
{
    /// <summary>Every SQLite row on prepared statements; <c>Sqlite_AdoNet</c> allocates commands by design.</summary>
    public static TheoryData<string> PreparedStatementRows =>
    [
        StoreNames.SqliteWal, StoreNames.SqliteScalar, StoreNames.SqliteOneConnection, StoreNames.SqlitePerThread, StoreNames.SqliteRollback, StoreNames.SqliteSharedCache,
    ];

    /// <summary>A strategy hands connections out and back without allocating: the point benchmarks' goal for Get, HaveKey and Put is 0 bytes.</summary>
    [Theory]
    [MemberData(nameof(PreparedStatementRows))]
    public void Reads_and_writes_allocate_nothing_once_warm(string row)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(row, new StoreOptions { Directory = directory.Path });
        byte[] key = [1, 2, 3];
        byte[] value = new byte[128];
        var destination = new ArrayBufferWriter<byte>(256);
        store.Put(key, value);
        for (int i = 0; i < 100; i++)
        {
            destination.ResetWrittenCount();
            store.TryGet(key, destination);
            store.ContainsKey(key);
            value[0] = (byte)i;
            store.Put(key, value);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1_000; i++)
        {
            destination.ResetWrittenCount();
            store.TryGet(key, destination);
            store.ContainsKey(key);
            value[0] = (byte)(i + 100);
            store.Put(key, value);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }
}
