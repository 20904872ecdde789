using KvBench.Evaluation.MultiProcess;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Sqlite;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>Two processes of the built CLI writing one store as fast as it lets them.</summary>
[Trait("Category", "MultiProcess")]
[Collection(MultiProcessCollection.Name)]
public sealed class ContentionTests(ITestOutputHelper output)
{
    /// <summary>
    /// SQLite serialises writers; the adapter's busy_timeout must absorb every wait, so no SQLITE_BUSY or SQLITE_LOCKED
    /// reaches the caller, and every write either process acknowledged is there afterwards with its bytes.
    /// </summary>
    [Fact]
    public async Task Two_Sqlite_WAL_writers_at_full_speed_see_no_busy_error_and_lose_no_write()
    {
        using var directory = new TempDirectory();
        var probe = new MultiProcessProbe(KvBenchCli.Locate());

        ContentionResult result = await probe.RunContentionAsync(SqliteRow.WalName, directory.Path, TimeSpan.FromSeconds(3));

        AssertBothWroteAndLostNothing(result);
    }

    /// <summary>
    /// Both processes open LMDB with a 1 MiB map and write far more than that: each must grow the map itself when it
    /// fills (MDB_MAP_FULL) and adopt the size the other grew it to (MDB_MAP_RESIZED), with no error and no lost write.
    /// </summary>
    [Fact]
    public async Task Two_LMDB_writers_growing_one_map_from_1_MiB_adopt_each_others_growth_and_lose_no_write()
    {
        const long InitialMapBytes = 1024 * 1024;
        using var directory = new TempDirectory();
        var probe = new MultiProcessProbe(KvBenchCli.Locate());

        ContentionResult result = await probe.RunContentionAsync(
            LmdbRow.RowName, directory.Path, TimeSpan.FromSeconds(2), initialSizeBytes: InitialMapBytes, flushEachWrite: false);

        AssertBothWroteAndLostNothing(result);
        long dataFileBytes = new FileInfo(directory.Combine("data.mdb")).Length;
        Assert.True(
            dataFileBytes > 4 * InitialMapBytes,
            $"The data file is {dataFileBytes:N0} bytes: too little was written to make the 1 MiB map grow. {result}");
    }

    private void AssertBothWroteAndLostNothing(ContentionResult result)
    {
        output.WriteLine(result.ToString());
        foreach (WorkerRun run in (WorkerRun[])[result.First, result.Second])
        {
            WorkerResult worker = Assert.IsType<WorkerResult>(run.Result);
            Assert.True(worker.Opened, result.ToString());
            Assert.True(worker.ErrorCount == 0, result.ToString());
            Assert.True(worker.Written > 0, result.ToString());
            Assert.Equal(0, run.ExitCode);
            Assert.True(result.Verified[run.Worker].Ok, result.ToString());
            Assert.Equal(worker.Written, result.Verified[run.Worker].Checked);
        }

        Assert.True(result.LostNothing, result.ToString());
    }
}
