using System.Diagnostics;

using KvBench.Core;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// What the UI feels while the CLI writes: two real processes of the CLI on one store. The "ui" runs a few threads of
/// point reads and small writes at a fixed rate (open loop) through the workload runner, first alone, then while the
/// "cli" imports batches at full speed through PutMany; the ui also looks for each batch the cli acknowledges, which
/// gives the visibility lag. Afterwards every write either process acknowledged is read back.
/// </summary>
/// <remarks>
/// The shape follows the row's multi-process level. Shared: both open the store to read and write. OneWriter: only
/// one process may write, and the import is the point, so the cli is the writer and the ui reads as a secondary that
/// catches up before each look for a batch (its writes are refused, so its workload is reads only). Exclusive: the cli's
/// open beside the ui fails, and the typed error it gets is the result. Rows that keep their data in process memory have
/// no second process to measure.
/// </remarks>
/// <param name="cli">The CLI started for each process.</param>
/// <param name="timeouts">Bounds on each wait for a worker; the defaults when left out.</param>
public sealed class ImportContention(KvBenchCli cli, MultiProcessTimeouts? timeouts = null)
{
    private readonly KvBenchCli _cli = cli ?? throw new ArgumentNullException(nameof(cli));
    private readonly MultiProcessTimeouts _timeouts = timeouts ?? new MultiProcessTimeouts();

    /// <summary>Whether a second process can see <paramref name="store"/>'s data at all: rows that keep it in files.</summary>
    public static bool Applies(string store) => StoreCatalog.DeclaredCapabilities(store).MultiProcess != MultiProcessLevel.InProcess;

    /// <summary>
    /// Runs the scenario on each of <paramref name="stores"/> that <see cref="Applies"/>, each in a fresh directory
    /// under <paramref name="workDirectory"/>.
    /// </summary>
    public async Task<IReadOnlyList<ImportContentionResult>> RunAsync(
        IEnumerable<string> stores,
        ImportContentionSettings settings,
        string workDirectory,
        Durability durability = Durability.Buffered,
        Action<string>? log = null)
    {
        ArgumentNullException.ThrowIfNull(stores);
        var results = new List<ImportContentionResult>();
        foreach (string store in stores.Where(Applies))
        {
            string directory = Path.Combine(workDirectory, $"{store}-contend");
            log?.Invoke($"{store}: the ui alone, then while the cli imports...");
            try
            {
                long started = Stopwatch.GetTimestamp();
                ImportContentionResult result = await RunAsync(store, directory, settings, durability).ConfigureAwait(false);
                log?.Invoke(
                    $"{result.Failure ?? $"{store}: ui p99 {Summary(result.UiAlone)} alone, {Summary(result.UiDuringImport)} during the import; " +
                        $"cli {result.Import?.RecordsPerSecond ?? 0:N0} records/s; {result.Lost} of {result.ReadBack:N0} lost"}" +
                        $" ({Stopwatch.GetElapsedTime(started).TotalSeconds:0.0} s)");
                results.Add(result);
            }
            finally
            {
                try
                {
                    Directory.Delete(directory, recursive: true);
                }
                catch (IOException)
                {
                    // A killed worker may still be closing files; the work directory is the caller's to remove.
                }
            }
        }

        return results;

        static string Summary(WorkloadResult? run) =>
            run is null
                ? "-"
                : string.Join(
                    " / ",
                    run.Operations.Select(operation => $"{operation.Type} {Reports.WorkloadCells.Latency(operation.Latency.P99)}"));
    }

    /// <summary>Runs the scenario on <paramref name="store"/> in <paramref name="directory"/>, which should be new.</summary>
    /// <exception cref="ArgumentException">The row keeps its data in process memory (see <see cref="Applies"/>).</exception>
    public async Task<ImportContentionResult> RunAsync(
        string store, string directory, ImportContentionSettings settings, Durability durability = Durability.Buffered)
    {
        ArgumentNullException.ThrowIfNull(settings);
        if (!Applies(store))
        {
            throw new ArgumentException($"{store} keeps its data in process memory: no second process can share it.", nameof(store));
        }

        MultiProcessLevel level = StoreCatalog.DeclaredCapabilities(store).MultiProcess;
        StoreAccess uiAccess = level == MultiProcessLevel.OneWriter ? StoreAccess.Secondary : StoreAccess.ReadWrite;
        var result = new ImportContentionResult { Store = store, Level = level, UiAccess = uiAccess, Settings = settings, Durability = durability };
        var problems = new List<string>();
        using (IKeyValueStore loading = StoreCatalog.Open(store, new StoreOptions { Directory = directory, Durability = durability }))
        {
            WorkloadRunner.Load(loading, settings.UiWorkload(writes: false));
            loading.Flush();
        }

        ImportContentionWorkerOptions uiOptions = new()
        {
            Role = ImportContentionRole.Ui,
            Store = store,
            Directory = directory,
            Durability = durability,
            Access = uiAccess,
            Settings = settings,
            MaxDuration = (4 * settings.ImportDuration) + settings.VisibilityDeadline + _timeouts.Ready + _timeouts.Exit,
        };
        TimeSpan phase = settings.ImportDuration + _timeouts.Exit;
        bool clockShared = true;
        long uiStarted = Stopwatch.GetTimestamp();
        await using WorkerProcess ui = WorkerProcess.Start(_cli, uiOptions.ToArguments(), MultiProcessProbe.SecondWorker, uiAccess);
        await using WorkerProcess cli = WorkerProcess.Start(
            _cli,
            (uiOptions with { Role = ImportContentionRole.Cli, Access = StoreAccess.ReadWrite }).ToArguments(),
            MultiProcessProbe.FirstWorker,
            StoreAccess.ReadWrite);
        if (await ReadyAsync(ui, MultiProcessProbe.SecondWorker, uiStarted) is not { } uiClockShared)
        {
            return await EndAsync(
                ui,
                cli,
                result with
                {
                    Ui = (await ui.MessageAsync(WorkerMessage.Finished, TimeSpan.Zero).ConfigureAwait(false))?.Ui,
                }).ConfigureAwait(false);
        }

        clockShared &= uiClockShared;
        ui.Send(ImportContentionWorker.AloneCommand);
        result = result with { UiAlone = (await ui.MessageAsync(ImportContentionWorker.AloneCommand, phase).ConfigureAwait(false))?.Workload };
        if (result.UiAlone is null)
        {
            problems.Add($"The ui did not report its phase alone within {phase.TotalSeconds:0} s.");
            return await EndAsync(ui, cli, result).ConfigureAwait(false);
        }

        long cliOpened = Stopwatch.GetTimestamp();
        cli.Send(ImportContentionWorker.OpenCommand);
        if (await ReadyAsync(cli, MultiProcessProbe.FirstWorker, cliOpened) is not { } cliClockShared)
        {
            ImportReport? refused = (await cli.MessageAsync(WorkerMessage.Finished, TimeSpan.Zero).ConfigureAwait(false))?.Import;
            bool expected = level == MultiProcessLevel.Exclusive && refused?.OpenFailure is { Error: nameof(StoreLockedException) };
            return await EndAsync(
                ui,
                cli,
                result with
                {
                    Import = refused,
                    NotPossible = expected ? refused!.OpenFailure : null,
                    ClockShared = clockShared,
                }).ConfigureAwait(false);
        }

        clockShared &= cliClockShared;
        cli.Send(ImportContentionWorker.GoCommand);
        ui.Send(ImportContentionWorker.ImportCommand);
        ImportReport? import = (await cli.MessageAsync(WorkerMessage.Finished, phase).ConfigureAwait(false))?.Import;
        WorkloadResult? during = (await ui.MessageAsync(ImportContentionWorker.ImportCommand, phase).ConfigureAwait(false))?.Workload;
        if (import is null || during is null)
        {
            problems.Add($"The {(import is null ? "cli" : "ui")} did not report its import phase within {phase.TotalSeconds:0} s.");
        }

        return await EndAsync(ui, cli, result with { Import = import, UiDuringImport = during, ClockShared = clockShared }).ConfigureAwait(false);

        // Waits for a worker's store to be open and checks its clock: the timestamp it printed must fall between this
        // process's clock before the worker was asked to open (before) and after its line arrived. Null when it never became ready.
        async Task<bool?> ReadyAsync(WorkerProcess worker, string name, long before)
        {
            WorkerMessage? ready = await worker.MessageAsync(WorkerMessage.Ready, _timeouts.Ready).ConfigureAwait(false);
            long after = Stopwatch.GetTimestamp();
            if (ready is null)
            {
                return null;
            }

            bool shared = ready.Clock is { } clock && clock >= before && clock <= after;
            if (!shared)
            {
                problems.Add(
                    $"The {name}'s clock ({ready.Clock}) is not this process's (between {before} and {after}): its " +
                        $"timestamps cannot be compared, so no lag is reported.");
            }

            return shared;
        }

        // Stops the ui (it looks for the cli's last batches first), waits for both to exit, reads back every
        // acknowledged write of both, and computes the lag from the two processes' timestamps.
        async Task<ImportContentionResult> EndAsync(WorkerProcess uiWorker, WorkerProcess cliWorker, ImportContentionResult partial)
        {
            uiWorker.Send($"{ImportContentionWorker.StopCommand} {partial.Import?.BatchesAttempted ?? 0}");
            UiReport? uiReport = (await uiWorker.MessageAsync(
                WorkerMessage.Finished,
                settings.VisibilityDeadline + _timeouts.Exit).ConfigureAwait(false))?.Ui
                ?? partial.Ui;
            WorkerRun uiRun = await uiWorker.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
            WorkerRun cliRun = await cliWorker.FinishAsync(_timeouts.Exit).ConfigureAwait(false);
            if (uiReport is null)
            {
                problems.Add(
                    $"The ui gave no report (exit code " +
                        $"{uiRun.ExitCode?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none: killed"}" +
                        $"): {uiRun.StandardError.Trim()}");
            }

            if (partial.UiAlone is not null && partial.Import is null)
            {
                problems.Add(
                    $"The cli gave no report (exit code " +
                        $"{cliRun.ExitCode?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none: killed"}" +
                        $"): {cliRun.StandardError.Trim()}");
            }

            partial = partial with { Ui = uiReport };
            if (partial.UiDuringImport is not null && partial.Import is not null && uiReport is not null && partial.ClockShared)
            {
                partial = WithLag(partial, partial.Import, uiReport);
            }

            return ReadBack(partial, directory) with { Problems = problems };
        }
    }

    /// <summary>
    /// The lag of every batch the cli acknowledged: the ui's first sight of it minus the cli's acknowledgement, on one
    /// clock; how early the batches seen before their acknowledgement were; and, where the cli's writer times its
    /// commits, what each PutMany did after its commit was visible and where in it each early sight fell.
    /// </summary>
    private static ImportContentionResult WithLag(ImportContentionResult result, ImportReport import, UiReport ui)
    {
        var lag = new LatencyHistogram();
        var early = new LatencyHistogram();
        var afterCommit = new LatencyHistogram();
        var afterHook = new LatencyHistogram();
        var checkpoints = new LatencyHistogram();
        long unseen = 0;
        long beforeHook = 0;
        long duringCheckpoint = 0;
        long afterHookReturned = 0;
        bool timed = import.CommittedAt.Count == import.AcknowledgedAt.Count && import.CheckpointTicks.Count == import.AcknowledgedAt.Count;
        double nanosecondsPerTick = 1e9 / Stopwatch.Frequency;
        for (int i = 0; i < import.AcknowledgedBatches.Count; i++)
        {
            long acknowledgedAt = import.AcknowledgedAt[i];
            long committedAt = timed ? import.CommittedAt[i] : 0;
            long hookReturnedAt = committedAt + (timed ? import.CheckpointTicks[i] : 0);
            if (committedAt != 0)
            {
                afterCommit.Record((long)((acknowledgedAt - committedAt) * nanosecondsPerTick));
                afterHook.Record((long)((acknowledgedAt - hookReturnedAt) * nanosecondsPerTick));
                if (hookReturnedAt > committedAt)
                {
                    checkpoints.Record((long)((hookReturnedAt - committedAt) * nanosecondsPerTick));
                }
            }

            long batch = import.AcknowledgedBatches[i];
            if (batch >= ui.BatchSeenAt.Count)
            {
                unseen++;
                continue;
            }

            long seenAt = ui.BatchSeenAt[(int)batch];
            long ticks = seenAt - acknowledgedAt;
            if (ticks < 0)
            {
                early.Record((long)(-ticks * nanosecondsPerTick));
                if (committedAt != 0)
                {
                    // SQLite makes the commit visible (the WAL index header) a little before it calls the hook.
                    beforeHook += seenAt < committedAt ? 1 : 0;
                    duringCheckpoint += seenAt >= committedAt && seenAt < hookReturnedAt ? 1 : 0;
                    afterHookReturned += seenAt >= hookReturnedAt ? 1 : 0;
                }
            }

            lag.Record((long)(ticks * nanosecondsPerTick));
        }

        return result with
        {
            VisibilityLag = lag.Count > 0 ? lag.Summarize() : null,
            SeenBeforeAcknowledged = early.Count,
            SeenEarlyBy = early.Count > 0 ? early.Summarize() : null,
            Unseen = unseen,
            CommitToAcknowledged = afterCommit.Count > 0 ? afterCommit.Summarize() : null,
            HookToAcknowledged = afterHook.Count > 0 ? afterHook.Summarize() : null,
            CommitCheckpoints = afterCommit.Count > 0 ? checkpoints.Summarize() : null,
            SeenEarlyWhere = afterCommit.Count > 0 ? new EarlySightings(beforeHook, duringCheckpoint, afterHookReturned) : null,
            CommitWal = afterCommit.Count > 0 && import.WalFrames.Count == import.AcknowledgedAt.Count ? WalAtCommits(import) : null,
        };
    }

    /// <summary>The WAL's frames after the cli's timed commits, beside the threshold its writer checkpoints at.</summary>
    private static CommitWal WalAtCommits(ImportReport import)
    {
        int[] frames = [.. import.WalFrames.Where((_, i) => import.CommittedAt[i] != 0)];
        Array.Sort(frames);
        return new CommitWal(import.AutoCheckpointFrames, frames[frames.Length / 2], frames[^1]);
    }

    /// <summary>Opens the store in this process, once both workers have ended, and reads back every acknowledged write of both.</summary>
    private static ImportContentionResult ReadBack(ImportContentionResult result, string directory)
    {
        using IKeyValueStore store = StoreCatalog.Open(result.Store, new StoreOptions { Directory = directory, Durability = result.Durability });
        Dictionary<long, ulong> acknowledged = result.Ui is { } ui
            ? ui.AcknowledgedIndexes.Zip(ui.AcknowledgedVersions).ToDictionary(write => write.First, write => write.Second)
            : [];
        VerificationResult uiReadBack = ImportContentionWorker.UiRecords.Verify(
            key => store.Get(key), LongRange(0, result.Settings.UiRecords), index => acknowledged.GetValueOrDefault(index));
        VerificationResult? importReadBack = result.Import is { } import
            ? ImportContentionWorker.ImportRecords.Verify(
                key => store.Get(key),
                import.AcknowledgedBatches.SelectMany(batch => LongRange(batch * import.BatchSize, import.BatchSize)),
                _ => 0)
            : null;
        return result with { UiReadBack = uiReadBack, ImportReadBack = importReadBack };
    }

    private static IEnumerable<long> LongRange(long start, long count)
    {
        for (long index = start; index < start + count; index++)
        {
            yield return index;
        }
    }
}
