using KvBench.Core;

namespace KvBench.Testing;

/// <summary>
/// A store on a small file system of its own (<see cref="SmallFileSystem"/>), filled until a write fails, which must be a
/// <see cref="StoreFullException"/> naming the row; every write acknowledged before it still reads back, in the same open
/// and after a reopen; once space is freed, the store takes writes again. KvBench runs it over its rows; a team derives
/// <see cref="DiskFullSuite{TDefinition}"/>. Skips where the file system cannot be mounted (mounting needs root).
/// </summary>
public abstract class DiskFullSuite : StoreSuite
{
    /// <summary>Room for a row's reserve (FASTER's is 144 MiB) and the headroom written into.</summary>
    private const long FileSystemBytes = 320L << 20;

    /// <summary>The free space, above a row's reserve, that the test writes into: a few thousand records.</summary>
    private const long HeadroomBytes = 12L << 20;

    private const int ValueBytes = 4096;

    [Theory]
    [MemberData(PersistentRowsMember)]
    public void A_full_disk_fails_the_write_with_the_typed_error_keeps_every_acknowledged_write_and_recovers_when_space_is_freed(string name)
    {
        if (CheckDiskFullRound(name) is { } reason)
        {
            Assert.Skip($"{name} cannot take the disk-full round: {reason}");
        }

        using SmallFileSystem disk = Mount(FileSystemBytes);
        var options = new StoreOptions { Directory = disk.Combine("store") };
        var acknowledged = new List<KeyValuePair<byte[], byte[]>>();
        IKeyValueStore store = Open(name, options);
        try
        {
            string ballast = disk.Ballast(disk.FreeBytes - FreeSpaceReserveBytes(store) - HeadroomBytes);

            Exception? failure = null;
            // A store may hold writes in memory before it writes them out (FASTER up to 64 MiB), so the bound is the whole
            // file system.
            for (int i = 0; failure is null && i < FileSystemBytes / ValueBytes; i++)
            {
                KeyValuePair<byte[], byte[]> record = new(TestData.Key(i), TestData.Bytes(ValueBytes, stream: i));
                try
                {
                    store.Put(record.Key, record.Value);
                    acknowledged.Add(record);
                }
                catch (Exception e)
                {
                    failure = e;
                }
            }

            StoreFullException full = Assert.IsType<StoreFullException>(failure);
            Assert.Equal(name, full.StoreName);
            Assert.NotEmpty(acknowledged);
            AssertHolds(store, acknowledged);

            File.Delete(ballast);
            if (KeepsDiskFullErrorUntilReopen(name))
            {
                store.Dispose();
                store = Open(name, options);
                AssertHolds(store, acknowledged);
            }

            KeyValuePair<byte[], byte[]> afterFreeing = new(TestData.Key(-1), TestData.Bytes(ValueBytes, stream: -1));
            store.Put(afterFreeing.Key, afterFreeing.Value);
            acknowledged.Add(afterFreeing);

            // A store that acknowledges at Flush (FASTER) holds the last write only then.
            store.Flush();
        }
        finally
        {
            store.Dispose();
        }

        using IKeyValueStore reopened = Open(name, options);
        AssertHolds(reopened, acknowledged);
    }

    /// <summary>
    /// Mounts a <see cref="SmallFileSystem"/> of <paramref name="sizeBytes"/> bytes, or skips the test, saying why, where
    /// this machine refuses the mount: a full disk cannot be had without filling the machine's.
    /// </summary>
    protected static SmallFileSystem Mount(long sizeBytes)
    {
        try
        {
            return new SmallFileSystem(sizeBytes);
        }
        catch (InvalidOperationException e)
        {
            Assert.Skip(e.Message);
            throw;
        }
    }

    /// <summary>
    /// The free space <paramref name="store"/> keeps for itself and refuses writes below: the test leaves its headroom
    /// above it. Default: none.
    /// </summary>
    protected virtual long FreeSpaceReserveBytes(IKeyValueStore store) => 0;

    /// <summary>
    /// Whether row <paramref name="name"/> goes on refusing writes after a full disk until it is reopened (RocksDB), so
    /// the test reopens it before it writes again. Default: no, the store takes writes again in the same open.
    /// </summary>
    protected virtual bool KeepsDiskFullErrorUntilReopen(string name) => false;

    /// <summary>
    /// Why row <paramref name="name"/> cannot take the round, or <see langword="null"/> when it can. Default: it can.
    /// </summary>
    protected virtual string? CheckDiskFullRound(string name) => null;

    private static void AssertHolds(IKeyValueStore store, IReadOnlyList<KeyValuePair<byte[], byte[]>> records)
    {
        foreach (KeyValuePair<byte[], byte[]> record in records)
        {
            Assert.Equal(record.Value, store.Get(record.Key));
        }
    }
}

/// <summary>
/// The disk-full round over a team's row, <typeparamref name="TDefinition"/>, unless
/// <see cref="KeyValueStoreDefinition.CheckDiskFullRound"/> says why it cannot take it: derive it with no members.
/// </summary>
/// <typeparam name="TDefinition">The row's definition, as the team's assembly declares it to kvbench.</typeparam>
public abstract class DiskFullSuite<TDefinition> : DiskFullSuite
    where TDefinition : KeyValueStoreDefinition, new()
{
    /// <summary>The row when it keeps its data past a dispose.</summary>
    public static TheoryData<string> PersistentRowsUnderTest => DefinitionRows<TDefinition>.PersistentRows;

    /// <inheritdoc/>
    protected override IKeyValueStore Open(string name, StoreOptions options) => DefinitionRows<TDefinition>.Open(options);

    /// <inheritdoc/>
    protected override string? CheckDiskFullRound(string name) => DefinitionRows<TDefinition>.Definition.CheckDiskFullRound();
}
