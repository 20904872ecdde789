using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;

using Xunit.Abstractions;

namespace KvBench.Tests.MultiProcess;

[Trait("Category", "MultiProcess")]
[Collection(MultiProcessCollection.Name)]
public sealed class SqliteContentionTests(ITestOutputHelper output)
{
    /// <summary>
    /// Two processes write to one Sqlite_WAL store as fast as it lets them for three seconds. SQLite serialises writers;
    /// the adapter's busy_timeout must absorb every wait, so no SQLITE_BUSY or SQLITE_LOCKED reaches the caller, and every
    /// write either process acknowledged is there afterwards with its bytes.
    /// </summary>
    [Fact]
    public async Task Two_Sqlite_WAL_writers_at_full_speed_see_no_busy_error_and_lose_no_write()
    {
        using var directory = new TempDirectory();
        var probe = new MultiProcessProbe(KvBenchCli.NextToApplication());

        ContentionResult result = await probe.RunContentionAsync(StoreNames.SqliteWal, directory.Path, TimeSpan.FromSeconds(3));

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
