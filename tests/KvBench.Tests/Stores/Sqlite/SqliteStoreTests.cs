using System.Buffers;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Sqlite;


namespace KvBench.Tests.Stores.Sqlite;

public sealed class SqliteStoreTests
{
    /// <summary>Every SQLite row on prepared statements; <c>Sqlite_AdoNet</c> allocates commands by design.</summary>
    public static TheoryData<string> PreparedStatementRows =>
    [
        SqliteRow.WalName, SqliteRow.ScalarName, SqliteRow.OneConnectionName, SqliteRow.PerThreadName,
        SqliteRow.RollbackName, SqliteRow.SharedCacheName,
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

    /// <summary>
    /// The writer's WAL hook replaces SQLite's own auto-checkpoint, so it must still checkpoint: without it the WAL would
    /// only grow. Each commit is timed between the call's start and its return.
    /// </summary>
    [Theory]
    [InlineData(SqliteRow.WalName)]
    [InlineData(SqliteRow.ScalarName)]
    public void The_writer_times_each_commit_and_still_checkpoints_at_SQLites_threshold(string row)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(row, new StoreOptions { Directory = directory.Path });
        var clock = Assert.IsAssignableFrom<ISqliteCommitClock>(store);
        Assert.Equal(default, clock.LastCommit);
        Assert.Equal(1_000, clock.AutoCheckpointFrames);
        byte[] value = new byte[1_000];
        int checkpoints = 0;
        int mostFrames = 0;
        int fewerFramesAfter = 0;
        int previousFrames = 0;
        byte[] key = [2, 0, 0];

        // About a page per commit: SQLite's default threshold (1,000 frames) is passed, and again after the WAL restarts.
        for (int i = 0; i < 2_500; i++)
        {
            value[0] = (byte)i;
            key[1] = (byte)(i >> 8);
            key[2] = (byte)i;
            long before = System.Diagnostics.Stopwatch.GetTimestamp();
            store.Put(key, value);
            long after = System.Diagnostics.Stopwatch.GetTimestamp();
            SqliteCommitTiming commit = clock.LastCommit;
            Assert.InRange(commit.VisibleAt, before, after);
            Assert.InRange(commit.CheckpointTicks, 0, after - commit.VisibleAt);
            checkpoints += commit.CheckpointTicks > 0 ? 1 : 0;
            fewerFramesAfter += commit.WalFrames < previousFrames ? 1 : 0;
            mostFrames = Math.Max(mostFrames, commit.WalFrames);
            previousFrames = commit.WalFrames;
        }

        Assert.True(checkpoints > 0, "no commit checkpointed");
        Assert.True(fewerFramesAfter > 0, $"the WAL never restarted after a checkpoint (up to {mostFrames} frames)");
        Assert.InRange(mostFrames, 1_000, 1_100);

        // What a Put through the hook allocates is for the point benchmarks to measure, on a Release build in a process
        // of their own: counted here, on a Debug build beside other test classes, it varies from run to run.
    }

    /// <summary>
    /// The checkpoint threshold a user sets is the one the hook keeps: 0 never checkpoints, so a run with it tells a
    /// stall the auto-checkpoint causes from one it does not.
    /// </summary>
    [Theory]
    [InlineData(0)]
    [InlineData(50)]
    public void The_writer_checkpoints_at_the_threshold_the_options_set(int frames)
    {
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(
            SqliteRow.WalName, new SqliteStoreOptions { Directory = directory.Path, AutoCheckpointFrames = frames });
        var clock = Assert.IsAssignableFrom<ISqliteCommitClock>(store);
        Assert.Equal(frames, clock.AutoCheckpointFrames);
        int checkpoints = 0;
        int mostFrames = 0;
        for (int i = 0; i < 200; i++)
        {
            store.Put([3, (byte)i], new byte[1_000]);
            checkpoints += clock.LastCommit.CheckpointTicks > 0 ? 1 : 0;
            mostFrames = Math.Max(mostFrames, clock.LastCommit.WalFrames);
        }

        if (frames == 0)
        {
            Assert.Equal(0, checkpoints);
            Assert.True(mostFrames >= 200, $"the WAL stopped growing at {mostFrames} frames");
        }
        else
        {
            Assert.True(checkpoints > 0, "no commit checkpointed");
            Assert.InRange(mostFrames, frames, frames + 10);
        }
    }

    [Fact]
    public void A_read_only_store_has_no_commits_to_time()
    {
        using var directory = new TempDirectory();
        using (IKeyValueStore writer = StoreCatalog.Open(SqliteRow.WalName, new StoreOptions { Directory = directory.Path }))
        {
            writer.Put([1], [1]);
        }

        using IKeyValueStore store = StoreCatalog.Open(SqliteRow.WalName, new StoreOptions { Directory = directory.Path, Access = StoreAccess.ReadOnly });
        var clock = Assert.IsAssignableFrom<ISqliteCommitClock>(store);
        Assert.Equal(default, clock.LastCommit);
        Assert.Equal(0, clock.AutoCheckpointFrames);
    }
}
