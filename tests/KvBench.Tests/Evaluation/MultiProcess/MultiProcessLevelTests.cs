using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Tests.Evaluation.Probes;
using KvBench.Tests.Stores.Conformance;



namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// Two real processes of the built CLI, a "cli" and a "ui", on one directory at once, for every row that keeps its data in
/// files. The level they show must be the level the adapter declares; each level's contract is then checked in detail.
/// The two processes are the probe's own (<see cref="MeasuredRows"/>), measured once for this class and the probe tests.
/// </summary>
[Trait("Category", "MultiProcess")]
[Collection(MultiProcessCollection.Name)]
public sealed class MultiProcessLevelTests(MeasuredRows rows, ITestOutputHelper output)
{
    [Theory]
    [MemberData(nameof(Rows.Persistent), MemberType = typeof(Rows))]
    public void Two_processes_show_the_declared_multi_process_level(string name)
    {
        MultiProcessMeasurement measured = Assert.IsType<MultiProcessMeasurement>(rows.Measure(name).MultiProcess);

        output.WriteLine(measured.ToString());
        Assert.True(measured.MatchesDeclared, measured.ToString());
        WorkerResult first = Assert.IsType<WorkerResult>(measured.First.Result);
        Assert.True(first.Written > 1, measured.ToString());
        Assert.True(measured.Verified[MultiProcessProbe.FirstWorker].Ok, measured.ToString());
        switch (measured.Declared)
        {
            case MultiProcessLevel.Shared:
                AssertShared(measured, first);
                break;
            case MultiProcessLevel.OneWriter:
                AssertOneWriter(measured);
                break;
            case MultiProcessLevel.Exclusive:
                AssertExclusive(measured);
                break;
            default:
                Assert.Fail($"{name} keeps its data in files but declares {measured.Declared}, which no second process can check.");
                break;
        }
    }

    /// <summary>Both wrote their own records and read the other's while running; every acknowledged write of either is there.</summary>
    private static void AssertShared(MultiProcessMeasurement measured, WorkerResult first)
    {
        WorkerRun ui = Assert.Single(measured.Others);
        WorkerResult second = Assert.IsType<WorkerResult>(ui.Result);
        Assert.Equal(StoreAccess.ReadWrite, ui.Access);
        Assert.True(second.Written > 1, measured.ToString());
        Assert.True(first.PeerSeenWhileRunning > 0, measured.ToString());
        Assert.True(second.PeerSeenWhileRunning > 0, measured.ToString());
        Assert.Equal(0, first.ErrorCount + second.ErrorCount + first.WrongPeerValues + second.WrongPeerValues);
        Assert.Equal([MultiProcessProbe.FirstWorker, MultiProcessProbe.SecondWorker], measured.Verified.Keys.Order());
        Assert.All(measured.Verified.Values, verified => Assert.True(verified.Ok, measured.ToString()));
        Assert.Equal(first.Written, measured.Verified[MultiProcessProbe.FirstWorker].Checked);
        Assert.Equal(second.Written, measured.Verified[MultiProcessProbe.SecondWorker].Checked);
    }

    /// <summary>The second writer was locked out; a read-only or secondary open saw the writer's records and had its write refused.</summary>
    private static void AssertOneWriter(MultiProcessMeasurement measured)
    {
        WorkerRun secondWriter = measured.Others[0];
        Assert.True(secondWriter.WasLockedOut, measured.ToString());
        Assert.Equal(ExitCodes.StoreLocked, secondWriter.ExitCode);
        WorkerRun reader = measured.Others[^1];
        WorkerResult read = Assert.IsType<WorkerResult>(reader.Result);
        Assert.Contains(reader.Access, new[] { StoreAccess.ReadOnly, StoreAccess.Secondary });
        Assert.True(read.PeerSeenWhileRunning > 0, measured.ToString());
        Assert.Equal(nameof(StoreReadOnlyException), read.WriteRefusedWith);
        Assert.Equal(0, read.ErrorCount + read.WrongPeerValues);
    }

    /// <summary>
    /// Every second open failed with the typed error and a non-zero exit code, each within 2 seconds (the contract's
    /// fail-fast bound, timed inside the child around the open); the first process's data was intact afterwards.
    /// </summary>
    private static void AssertExclusive(MultiProcessMeasurement measured)
    {
        Assert.Equal([StoreAccess.ReadWrite, StoreAccess.ReadOnly, StoreAccess.Secondary], measured.Others.Select(run => run.Access));
        Assert.All(measured.Others, run =>
        {
            Assert.True(run.WasLockedOut, measured.ToString());
            Assert.Equal(ExitCodes.StoreLocked, run.ExitCode);
            Assert.True(run.Result!.OpenMilliseconds < 2000, measured.ToString());
        });
    }
}
