using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// Measures how several processes may use a store, with two real processes of the CLI on one directory: a "cli" that
/// opens it to read and write and keeps writing, and a "ui" that tries, in turn, to read and write beside it, to open
/// it read-only, and to open it as a secondary. What succeeds, what each saw, and what was read back afterwards give the
/// <see cref="MultiProcessLevel"/>; nothing about any store is known here beyond its catalog row.
/// </summary>
public sealed class MultiProcessProbe
{
    /// <summary>The name of the process that opens the store first and holds it.</summary>
    public const string FirstWorker = "cli";

    /// <summary>The name of the process that opens the store second.</summary>
    public const string SecondWorker = "ui";

    /// <summary>Records each writer acknowledges before it honours a stop, so every check reads back more than one.</summary>
    private const int MinimumWrites = 20;

    /// <summary>How the second process tries to read beside a writer that keeps it from writing, in order.</summary>
    private static readonly StoreAccess[] s_readerAccesses = [StoreAccess.ReadOnly, StoreAccess.Secondary];

    private readonly KvBenchCli _cli;
    private readonly MultiProcessTimeouts _timeouts;

    /// <summary>Creates a probe that starts <paramref name="cli"/> for each process.</summary>
    public MultiProcessProbe(KvBenchCli cli, MultiProcessTimeouts? timeouts = null)
    {
        ArgumentNullException.ThrowIfNull(cli);
        _cli = cli;
        _timeouts = timeouts ?? new MultiProcessTimeouts();
    }

    /// <summary>Measures the multi-process level of <paramref name="store"/> in <paramref name="directory"/>, which should be new.</summary>
    public async Task<MultiProcessMeasurement> MeasureAsync(string store, string directory, Durability durability = Durability.Buffered)
    {
        MultiProcessLevel declared = StoreCatalog.DeclaredCapabilities(store).MultiProcess;
        WorkerOptions first = FirstWriter(store, directory, durability) with { MinimumWrites = MinimumWrites };
        WorkerOptions second = first with { Name = SecondWorker, Peer = FirstWorker };
        var others = new List<WorkerRun>();
        var evidence = new List<string>();

        await using WorkerProcess writer = WorkerProcess.Start(_cli, first);
        if (!await writer.WaitForAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false))
        {
            evidence.Add($"{FirstWorker} could not open the store on its own.");
            return new(store, declared, null, await writer.FinishAsync(_timeouts.Exit).ConfigureAwait(false), others, Empty, evidence);
        }

        // A second writer beside the first.
        await using (WorkerProcess otherWriter = WorkerProcess.Start(_cli, second))
        {
            if (await otherWriter.WaitForAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false))
            {
                // The first writer's first record was flushed before the second started, so a second that shares the
                // store sees it on its first look; one that never does has had the whole wait to be seen by the first too.
                bool secondSaw = await otherWriter.WaitForAsync(WorkerMessage.SawPeer, _timeouts.SeePeer).ConfigureAwait(false);
                bool firstSaw = await writer.WaitForAsync(WorkerMessage.SawPeer, secondSaw ? _timeouts.SeePeer : TimeSpan.Zero).ConfigureAwait(false);
                WorkerRun firstRun = await writer.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
                others.Add(await otherWriter.FinishAsync(_timeouts.Exit).ConfigureAwait(false));
                IReadOnlyDictionary<string, VerificationResult> verified = Verify(store, directory, durability, [firstRun, others[0]]);
                bool ranCleanly = EndedCleanly(firstRun) && EndedCleanly(others[0]);
                bool readBack = verified.Values.All(result => result.Ok);
                evidence.Add($"{SecondWorker} opened the store to read and write while {FirstWorker} held it.");
                evidence.Add(
                    $"While both ran, {FirstWorker} {(firstSaw ? "saw" : "never saw")} {SecondWorker}'s records and " +
                        $"{SecondWorker} {(secondSaw ? "saw" : "never saw")} {FirstWorker}'s.");
                evidence.Add(
                    ranCleanly
                        ? "No store call in either process failed or read wrong bytes."
                        : "A store call failed or read wrong bytes: see the runs.");
                evidence.Add(
                    readBack
                        ? "Every acknowledged write of both was read back with its bytes afterwards."
                        : "Acknowledged writes were missing or wrong afterwards.");

                // Two processes that each keep their own private copy never see each other, and nothing is left to read back.
                MultiProcessLevel? sharedLevel = (ranCleanly, firstSaw, secondSaw) switch
                {
                    (true, true, true) when readBack => MultiProcessLevel.Shared,
                    (true, false, false) => MultiProcessLevel.InProcess,
                    _ => null,
                };
                return new(store, declared, sharedLevel, firstRun, others, verified, evidence);
            }

            WorkerRun refused = await otherWriter.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
            others.Add(refused);
            if (!refused.WasLockedOut)
            {
                evidence.Add($"{SecondWorker}'s open to read and write failed, but not with {nameof(StoreLockedException)}.");
                return await EndAsync(writer, declared, null).ConfigureAwait(false);
            }
        }

        // A reader beside the writer: read-only, then as a secondary.
        foreach (StoreAccess access in s_readerAccesses)
        {
            await using WorkerProcess reader = WorkerProcess.Start(_cli, second with { Access = access });
            if (await reader.WaitForAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false))
            {
                bool saw = await reader.WaitForAsync(WorkerMessage.SawPeer, _timeouts.SeePeer).ConfigureAwait(false);
                WorkerRun readerRun = await reader.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
                others.Add(readerRun);
                string? refusal = readerRun.Result?.WriteRefusedWith;
                evidence.Add(
                    $"{SecondWorker} opened the store {access} while {FirstWorker} wrote, and " +
                        $"{(saw ? "saw" : "never saw")} {FirstWorker}'s flushed records.");
                evidence.Add(readerRun.Result is null
                    ? "It ended without a result."
                    : $"Its write attempt was {(refusal is null ? "accepted" : "refused with " + refusal)}.");
                bool readerOk = saw && refusal == nameof(StoreReadOnlyException) && EndedCleanly(readerRun);
                return await EndAsync(writer, declared, readerOk ? MultiProcessLevel.OneWriter : null).ConfigureAwait(false);
            }

            WorkerRun lockedOut = await reader.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
            others.Add(lockedOut);
            if (!lockedOut.WasLockedOut)
            {
                evidence.Add($"{SecondWorker}'s {access} open failed, but not with {nameof(StoreLockedException)}.");
                return await EndAsync(writer, declared, null).ConfigureAwait(false);
            }
        }

        double slowest = others.Max(run => run.Result!.OpenMilliseconds);
        bool fast = slowest <= _timeouts.LockedOpenFailsWithin.TotalMilliseconds;
        bool exitCodesSayFailure = others.All(run => run.ExitCode is not (null or 0));
        evidence.Add(
            $"Every open beside {FirstWorker} failed with {nameof(StoreLockedException)}; the slowest took " +
                $"{slowest:0} ms (bound {_timeouts.LockedOpenFailsWithin.TotalMilliseconds:0} ms).");
        evidence.Add(exitCodesSayFailure ? "Every refused process exited with a non-zero code." : "A refused process exited with 0.");
        return await EndAsync(writer, declared, fast && exitCodesSayFailure ? MultiProcessLevel.Exclusive : null).ConfigureAwait(false);

        // Stops the first writer, reads back what it acknowledged, and settles the level: only if nothing was lost.
        async Task<MultiProcessMeasurement> EndAsync(WorkerProcess firstWriter, MultiProcessLevel declaredLevel, MultiProcessLevel? level)
        {
            WorkerRun firstRun = await firstWriter.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
            IReadOnlyDictionary<string, VerificationResult> verified = Verify(store, directory, durability, [firstRun]);
            bool intact = EndedCleanly(firstRun) && verified.Values.All(result => result.Ok);
            evidence.Add(
                intact
                    ? $"{FirstWorker}'s acknowledged writes were all read back with their bytes afterwards."
                    : $"{FirstWorker}'s data was not intact afterwards, or it failed.");
            return new(store, declaredLevel, intact ? level : null, firstRun, others, verified, evidence);
        }
    }

    /// <summary>
    /// Starts two writers on <paramref name="store"/> in <paramref name="directory"/>, lets both write as fast as the
    /// store allows for <paramref name="duration"/>, then reads back every write either acknowledged.
    /// </summary>
    /// <param name="store">The row name.</param>
    /// <param name="directory">A new directory both writers share.</param>
    /// <param name="duration">How long both write at once.</param>
    /// <param name="durability">The tier both open the store with.</param>
    /// <param name="initialSizeBytes">
    /// The start size both ask the row for (<see cref="StoreRow.WithInitialSize"/>); small, it makes a store that
    /// preallocates (LMDB's map) grow under both. A row that grows from nothing opens as it is.
    /// </param>
    /// <param name="flushEachWrite">Whether each writer flushes after every write (see <see cref="WorkerOptions.FlushEachWrite"/>).</param>
    public async Task<ContentionResult> RunContentionAsync(
        string store,
        string directory,
        TimeSpan duration,
        Durability durability = Durability.Buffered,
        long? initialSizeBytes = null,
        bool flushEachWrite = true)
    {
        WorkerOptions first = FirstWriter(store, directory, durability) with
        {
            Pause = TimeSpan.Zero,
            InitialSizeBytes = initialSizeBytes,
            FlushEachWrite = flushEachWrite,
        };
        await using WorkerProcess firstWriter = WorkerProcess.Start(_cli, first);
        bool firstReady = await firstWriter.WaitForAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false);
        await using WorkerProcess secondWriter = WorkerProcess.Start(_cli, first with { Name = SecondWorker, Peer = FirstWorker });
        if (firstReady && await secondWriter.WaitForAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false))
        {
            await Task.Delay(duration).ConfigureAwait(false);
        }

        // Stop both before waiting for either, so neither writes alone for long.
        firstWriter.RequestStop();
        secondWriter.RequestStop();
        WorkerRun firstRun = await firstWriter.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
        WorkerRun secondRun = await secondWriter.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
        return new ContentionResult(store, duration, firstRun, secondRun, Verify(store, directory, durability, [firstRun, secondRun]));
    }

    /// <summary>Whether a worker opened the store, exited with 0, and no store call threw or read wrong bytes.</summary>
    internal static bool EndedCleanly(WorkerRun run) =>
        run is { ExitCode: 0, Result: { Opened: true, ErrorCount: 0, WrongPeerValues: 0 } };

    private static IReadOnlyDictionary<string, VerificationResult> Empty { get; } = new Dictionary<string, VerificationResult>();

    /// <summary>Opens the store in this process, once every worker has ended, and reads back each writer's acknowledged records.</summary>
    private static Dictionary<string, VerificationResult> Verify(string store, string directory, Durability durability, IEnumerable<WorkerRun> runs)
    {
        var verified = new Dictionary<string, VerificationResult>();
        using IKeyValueStore opened = StoreCatalog.Open(store, new StoreOptions { Directory = directory, Durability = durability });
        foreach (WorkerRun run in runs.Where(run => run is { Access: StoreAccess.ReadWrite, Result.Opened: true }))
        {
            verified[run.Worker] = WorkerRecords.For(run.Worker).Verify(opened, run.Result!.Written);
        }

        return verified;
    }

    private static WorkerOptions FirstWriter(string store, string directory, Durability durability) => new()
    {
        Store = store,
        Directory = directory,
        Durability = durability,
        Name = FirstWorker,
        Peer = SecondWorker,
    };
}
