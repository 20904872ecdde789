using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Evaluation.Workload;
using KvBench.Stores;

namespace KvBench.Evaluation.Decision;

/// <summary>
/// Measures what a profile's drivers need, on every candidate and nothing else: the profile's workload in rounds, the
/// capability probes its drivers name, the writer-beside-reader scenario, crash and power-loss rounds at its tier. A measurement the
/// caller already has (the evaluation's capability probes) is taken, not measured again.
/// </summary>
/// <param name="profile">What to measure for.</param>
/// <param name="settings">How hard to measure.</param>
/// <param name="cli">The CLI to start as other processes, or <see langword="null"/> to leave what needs one unmeasured.</param>
/// <param name="workDirectory">A scratch directory the measurer fills and empties.</param>
/// <param name="log">Receives a line per phase, with what is left.</param>
public sealed class DecisionMeasurer(DecisionProfile profile, DecisionSettings settings, KvBenchCli? cli, string workDirectory, Action<string>? log = null)
{
    /// <summary>The row whose workload figures bound what KvBench's runner can measure: the in-memory floor, never a candidate.</summary>
    public static string FloorRow => StoreCatalog.Floor.Name;

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    private long _started;
    private int _stepsDone;
    private int _steps;
    private int _phasesPerOption;

    /// <summary>The candidates: the profile's, or every embedded row this machine can open but the floor.</summary>
    public IReadOnlyList<string> Candidates { get; } = profile.Candidates ?? [.. StoreCatalog.AvailableNames.Where(name => name != FloorRow)];

    /// <summary>Whether any driver needs the profile's workload run in the measured process.</summary>
    public bool NeedsWorkload => profile.Drivers.Any(driver => driver.Quantity is DriverQuantity.Throughput or DriverQuantity.CpuPerOperation
        or DriverQuantity.AllocatedBytesPerOperation or DriverQuantity.DiskBytesPerRecord
            || (driver.Quantity == DriverQuantity.Latency && !driver.WhileWriting));

    /// <summary>Whether any driver needs a writer process beside a reader process.</summary>
    public bool NeedsContention =>
        profile.Drivers.Any(driver =>
            driver.Quantity == DriverQuantity.VisibilityLag || (driver.Quantity == DriverQuantity.Latency && driver.WhileWriting));

    /// <summary>Whether any driver needs crash rounds.</summary>
    public bool NeedsCrash => profile.Drivers.Any(driver => driver.Quantity == DriverQuantity.CrashKept);

    /// <summary>Whether any driver needs power-loss rounds.</summary>
    public bool NeedsPowerLoss => profile.Drivers.Any(driver => driver.Quantity == DriverQuantity.PowerLossKept);

    /// <summary>
    /// Measures every candidate, and the floor when the workload runs; <paramref name="probed"/> are capability
    /// measurements already made. The cheap, decisive measurements come first (capabilities, crash rounds), and an option
    /// a must-driver has already put out is not measured further unless <see cref="DecisionSettings.MeasureEveryOption"/>:
    /// nothing it could show would bring it back.
    /// </summary>
    /// <param name="probed">Capability measurements already made, taken where their search reached the drivers' thresholds.</param>
    /// <param name="contended">Writer-beside-reader runs already made, taken where they ran the profile's scenario at its tier.</param>
    /// <param name="powerCuts">Power-loss rounds already made, taken where they ran at the profile's tier with at least as many rounds.</param>
    public async Task<DecisionEvidence> MeasureAsync(
        IReadOnlyList<StoreMeasurement>? probed = null,
        IReadOnlyList<ImportContentionResult>? contended = null,
        IReadOnlyList<CrashRoundsResult>? powerCuts = null)
    {
        CapabilityCell[] cells = [.. profile.Drivers.Where(driver => driver.Capability is not null).Select(driver => driver.Capability!.Value).Distinct()];
        _phasesPerOption = (NeedsWorkload ? 1 : 0) + (cells.Length > 0 ? 1 : 0) + (NeedsContention ? 1 : 0) + (NeedsCrash ? 1 : 0)
            + (NeedsPowerLoss ? 1 : 0);
        _steps = (Candidates.Count * _phasesPerOption) + (NeedsWorkload ? 1 : 0);
        _started = Stopwatch.GetTimestamp();
        Directory.CreateDirectory(workDirectory);
        OptionEvidence[] options = [.. Candidates.Select(name => new OptionEvidence(name))];
        foreach (OptionEvidence option in options.Where(option => StoreCatalog.UnavailableReason(option.Option) is not null))
        {
            option.WorkloadFailure = $"not available here: {StoreCatalog.UnavailableReason(option.Option)}";
            option.OutBefore = option.WorkloadFailure;
            _steps -= _phasesPerOption;
            Log($"{option.Option} is {option.WorkloadFailure}");
        }

        // A server row named as a candidate needs its server running: started here (installed first where missing),
        // as the server suites start theirs, and always stopped.
        string[] servers = [.. options
            .Where(option => option.OutBefore is null && StoreCatalog.ServerNames.Contains(option.Option))
            .Select(option => option.Option)];
        RowHostGroup? hosts = null;
        if (servers.Length > 0)
        {
            Log($"Starting the servers of {string.Join(", ", servers)}...");
            try
            {
                hosts = await StoreCatalog.StartHostsAsync(servers).ConfigureAwait(false);
            }
            catch (StoreUnavailableException e)
            {
                foreach (OptionEvidence option in options.Where(option => servers.Contains(option.Option)))
                {
                    option.WorkloadFailure = $"not available here: {e.Message}";
                    option.OutBefore = option.WorkloadFailure;
                    _steps -= _phasesPerOption;
                }
            }
        }

        try
        {
            return await MeasureStartedAsync(options, cells, probed, contended, powerCuts).ConfigureAwait(false);
        }
        finally
        {
            if (hosts is not null)
            {
                await hosts.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private async Task<DecisionEvidence> MeasureStartedAsync(
        OptionEvidence[] options, CapabilityCell[] cells, IReadOnlyList<StoreMeasurement>? probed,
        IReadOnlyList<ImportContentionResult>? contended, IReadOnlyList<CrashRoundsResult>? powerCuts)
    {
        var partial = new DecisionEvidence(profile, settings, options, floor: null);
        if (cells.Length > 0)
        {
            foreach (OptionEvidence option in StillIn(options, partial).ToList())
            {
                Step($"{option.Option}: {string.Join(", ", cells)}", option);
                await ProbeAsync(option.Option, cells, option, probed?.FirstOrDefault(row => row.Name == option.Option)).ConfigureAwait(false);
                option.Done.Add(DecisionPhase.Capabilities);
            }
        }

        if (NeedsCrash)
        {
            foreach (OptionEvidence option in StillIn(options, partial).ToList())
            {
                Step($"{option.Option}: {Count(settings.CrashRounds, "crash round")} at {profile.Workload.Durability}", option);
                await CrashAsync(option.Option, option).ConfigureAwait(false);
                option.Done.Add(DecisionPhase.Crash);
            }
        }

        if (NeedsPowerLoss)
        {
            foreach (OptionEvidence option in StillIn(options, partial).ToList())
            {
                Step($"{option.Option}: {Count(settings.PowerLossRounds, "power-loss round")} at {profile.Workload.Durability}", option);
                await PowerLossAsync(option.Option, option, powerCuts).ConfigureAwait(false);
                option.Done.Add(DecisionPhase.PowerLoss);
            }
        }

        OptionEvidence? floor = null;
        if (NeedsWorkload)
        {
            foreach (OptionEvidence option in StillIn(options, partial).ToList())
            {
                Step($"{option.Option}: the profile's workload, {Count(settings.Rounds, "round")} of {settings.Duration.TotalSeconds:0.#} s", option);
                RunWorkload(option.Option, option);
                option.Done.Add(DecisionPhase.Workload);
            }

            floor = new OptionEvidence(FloorRow);
            Step($"{FloorRow}, the floor (what KvBench's runner costs): the profile's workload", floor);
            RunWorkload(FloorRow, floor);
        }

        if (NeedsContention)
        {
            foreach (OptionEvidence option in StillIn(options, new DecisionEvidence(profile, settings, options, floor)).ToList())
            {
                Step($"{option.Option}: a writer process beside a reader process, {Count(settings.ContentionRounds, "run")}", option);
                await ContendAsync(option.Option, option, contended?.FirstOrDefault(run => run.Store == option.Option)).ConfigureAwait(false);
                option.Done.Add(DecisionPhase.Contention);
            }
        }

        Log(string.Create(s_numbers, $"Measured in {Stopwatch.GetElapsedTime(_started).TotalSeconds:N0} s."));
        return new DecisionEvidence(profile, settings, options, floor);
    }

    /// <summary>
    /// The options no must-driver measured so far has put out; each one put out is marked with the first figure that did
    /// it, once, and skips the steps that follow. With <see cref="DecisionSettings.MeasureEveryOption"/>, every option.
    /// </summary>
    private IEnumerable<OptionEvidence> StillIn(OptionEvidence[] options, DecisionEvidence partial)
    {
        foreach (OptionEvidence option in options)
        {
            if (option.OutBefore is null && !settings.MeasureEveryOption)
            {
                foreach (Driver driver in profile.Drivers.Where(driver => driver.Must && DecisionEvidence.IsMeasuredYet(option, driver)))
                {
                    Figure figure = partial.FigureOf(option, driver);
                    if (DecisionOutcome.Judge(driver, figure) is Verdict.Missed or Verdict.Unmeasured)
                    {
                        option.OutBefore = $"{driver.Name} ({driver.Threshold()}): {driver.FormatFigure(figure)}";
                        Log($"{option.Option} is out on {option.OutBefore}; not measured further");
                        _steps -= _phasesPerOption - option.Steps;
                        break;
                    }
                }
            }

            if (option.OutBefore is null || (settings.MeasureEveryOption && StoreCatalog.UnavailableReason(option.Option) is null))
            {
                yield return option;
            }
        }
    }

    private void RunWorkload(string name, OptionEvidence evidence)
    {
        ProfileWorkload workload = profile.Workload;
        StoreRow row = StoreCatalog.Row(name);
        if (!row.OpensAt(workload.Durability))
        {
            evidence.WorkloadFailure = $"does not offer {workload.Durability} durability";
            return;
        }

        string directory = Path.Combine(workDirectory, "workload-" + name);
        var options = new StoreOptions { Directory = directory, Durability = workload.Durability };
        WorkloadSpec spec = workload.ToSpec(profile.Title);
        try
        {
            long loadStarted = Stopwatch.GetTimestamp();
            IKeyValueStore store = row.Open(options);
            try
            {
                WorkloadRunner.Load(store, spec);
                store.Flush();
                evidence.LoadSeconds = Stopwatch.GetElapsedTime(loadStarted).TotalSeconds;

                // Closed and reopened, so the bytes on disk are what the store keeps, not what it has yet to write out;
                // a row that keeps nothing past its process (the floor) stays open, or its records would be gone.
                if (row.Declared.Durability != DurabilityTiers.None)
                {
                    store.Dispose();
                    evidence.DiskBytes = DirectoryBytes(directory);
                    store = row.Open(options);
                }

                for (int round = 0; round < settings.Rounds; round++)
                {
                    evidence.Rounds.Add(WorkloadRunner.Run(store, spec, workload.ToRun(settings, round)));
                }
            }
            finally
            {
                store.Dispose();
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            evidence.WorkloadFailure = $"{e.GetType().Name}: {e.Message}";
        }
        finally
        {
            Reports.Sections.AdrContext.TryDelete(directory);
        }
    }

    private async Task ProbeAsync(string name, CapabilityCell[] cells, OptionEvidence evidence, StoreMeasurement? probed)
    {
        StoreRow row = StoreCatalog.Row(name);
        string directory = Path.Combine(workDirectory, "probe-" + name);
        try
        {
            foreach (CapabilityCell cell in cells)
            {
                try
                {
                    await ProbeCellAsync(cell).ConfigureAwait(false);
                }
                catch (Exception e) when (e is not OutOfMemoryException)
                {
                    evidence.ProbeFailures[cell] = $"{e.GetType().Name}: {e.Message}";
                }
            }
        }
        finally
        {
            Reports.Sections.AdrContext.TryDelete(directory);
        }

        async Task ProbeCellAsync(CapabilityCell cell)
        {
            switch (cell)
            {
                case CapabilityCell.KeyBytes:
                    int keyLimit = SearchLimit(CapabilityCell.KeyBytes, probed?.Key.SearchLimitBytes);
                    evidence.Key = probed?.Key is { } key && Reuse(evidence, "largest key", key.SearchLimitBytes >= keyLimit) ? key
                        : CapabilityProbes.LargestKey(row.Open, directory, keyLimit, row.Declared.MaxKeyBytes);
                    break;
                case CapabilityCell.ValueBytes:
                    int valueLimit = SearchLimit(CapabilityCell.ValueBytes, probed?.Value.SearchLimitBytes);
                    evidence.Value = probed?.Value is { } value && Reuse(evidence, "largest value", value.SearchLimitBytes >= valueLimit) ? value
                        : CapabilityProbes.LargestValue(row.Open, directory, valueLimit, row.Declared.MaxValueBytes);
                    break;
                case CapabilityCell.Growth:
                    evidence.Growth = probed?.Growth is { } growth && Reuse(evidence, "growth", true) ? growth
                        : CapabilityProbes.Growth(row.Open, directory, settings.Probes.GrowthInitialBytes, settings.Probes.GrowthFactor, row.WithInitialSize);
                    break;
                case CapabilityCell.OrderedScans:
                    evidence.Scan = probed?.Scan is { } scan && Reuse(evidence, "prefix scans", true) ? scan
                        : PrefixScanProbe.Measure(row.Open, directory, settings.Probes);
                    break;
                case CapabilityCell.MultiProcessWriters:
                    if (probed?.MultiProcess is { } multi && Reuse(evidence, "two processes", true))
                    {
                        evidence.MultiProcess = multi;
                    }
                    else if (cli is not null)
                    {
                        evidence.MultiProcess = await new MultiProcessProbe(cli, AdrGenerator.MultiProcessTimeouts)
                            .MeasureAsync(name, Path.Combine(directory, "multi-process"), profile.Workload.Durability).ConfigureAwait(false);
                    }

                    break;
            }
        }
    }

    private async Task ContendAsync(string name, OptionEvidence evidence, ImportContentionResult? contended)
    {
        ImportContentionSettings scenario = profile.Workload.ToContention(settings);
        if (contended is not null && contended.Durability == profile.Workload.Durability && SameScenario(contended.Settings, scenario))
        {
            evidence.Contention.Add(contended);
            evidence.Reused["writer beside reader"] = "the contention section of this run";
            return;
        }

        if (cli is null)
        {
            evidence.ContentionFailure = "no kvbench CLI to start as the other process";
            return;
        }

        if (!ImportContention.Applies(name))
        {
            evidence.ContentionFailure = "keeps its data in process memory: no second process can share it";
            return;
        }

        if (!StoreCatalog.Row(name).OpensAt(profile.Workload.Durability))
        {
            evidence.ContentionFailure = $"does not offer {profile.Workload.Durability} durability";
            return;
        }

        var contention = new ImportContention(cli, AdrGenerator.MultiProcessTimeouts);
        for (int run = 0; run < settings.ContentionRounds; run++)
        {
            string directory = Path.Combine(workDirectory, $"contention-{name}-{run}");
            try
            {
                evidence.Contention.Add(await contention.RunAsync(name, directory, scenario, profile.Workload.Durability).ConfigureAwait(false));
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                // A run that could not be made is a figure that could not be measured, said in the record, not the end of the decision.
                evidence.ContentionFailure = $"{e.GetType().Name}: {e.Message}";
                return;
            }
            finally
            {
                Reports.Sections.AdrContext.TryDelete(directory);
            }
        }
    }

    private async Task CrashAsync(string name, OptionEvidence evidence)
    {
        if (cli is null)
        {
            evidence.CrashFailure = "no kvbench CLI to start as the writer process";
            return;
        }

        DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
        if (offered == DurabilityTiers.None)
        {
            evidence.CrashFailure = "keeps nothing past its process";
            return;
        }

        if (!offered.Offers(profile.Workload.Durability))
        {
            evidence.CrashFailure = $"does not offer {profile.Workload.Durability} durability";
            return;
        }

        string directory = Path.Combine(workDirectory, "crash-" + name);
        try
        {
            // Acknowledged when Put returns, as the workload's writes are: a row that keeps writes in memory until a
            // Flush loses them here, as it would under the profile's writes.
            evidence.Crash = await CrashRounds.RunAsync(
                cli, name, profile.Workload.Durability, directory, settings.CrashRounds,
                killMoments: settings.CrashRounds, acknowledgeBeforeFlush: true).ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            evidence.CrashFailure = $"{e.GetType().Name}: {e.Message}";
        }
        finally
        {
            Reports.Sections.AdrContext.TryDelete(directory);
        }
    }

    private async Task PowerLossAsync(string name, OptionEvidence evidence, IReadOnlyList<CrashRoundsResult>? powerCuts)
    {
        Durability durability = profile.Workload.Durability;

        // The section's rounds acknowledge after Flush where a row needs one, the decision's after Put: the two agree
        // only for a row whose writes survive without a Flush.
        bool sameAcknowledgement = StoreCatalog.DeclaredCapabilities(name).WritesSurviveKillBeforeFlush;
        if (sameAcknowledgement
            && powerCuts?.FirstOrDefault(run => run.Store == name && run.Durability == durability && run.Rounds >= settings.PowerLossRounds) is { } done)
        {
            evidence.PowerLoss = done;
            evidence.Reused["power-loss rounds"] = "the power-loss rounds of this run";
            return;
        }

        DurabilityTiers offered = StoreCatalog.DeclaredCapabilities(name).Durability;
        bool server = StoreCatalog.ServerNames.Contains(name);
        evidence.PowerLossFailure = cli is null ? "no kvbench CLI to start as the writer process"
            : server && OneServerRows.Plan(powerCut: true).LeftOut.FirstOrDefault(left => left.Row.Name == name) is { } left
                ? left.Reason
            : offered == DurabilityTiers.None ? "keeps nothing past its process"
            : !offered.Offers(durability) ? $"does not offer {durability} durability"
            : PowerCutMount.Unavailable();
        if (evidence.PowerLossFailure is not null)
        {
            return;
        }

        string directory = Path.Combine(workDirectory, "power-" + name);
        try
        {
            // Acknowledged when Put returns, as for the crash rounds: what the profile's writes are promised. A server row
            // gets a server of its own on the power-cut file system, apart from the one its workload runs on.
            evidence.PowerLoss = server
                ? await PowerLossRounds.RunOnServerAsync(
                    cli!, name, durability, directory, settings.PowerLossRounds, cutMoments: settings.PowerLossRounds).ConfigureAwait(false)
                : await PowerLossRounds.RunAsync(
                    cli!, name, durability, directory, settings.PowerLossRounds, cutMoments: settings.PowerLossRounds,
                    acknowledgeBeforeFlush: true).ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            evidence.PowerLossFailure = $"{e.GetType().Name}: {e.Message}";
        }
        finally
        {
            Reports.Sections.AdrContext.TryDelete(directory);
        }
    }

    /// <summary>Whether two scenarios are the same run; the write share is compared to within rounding, being a sum of the mix's shares.</summary>
    private static bool SameScenario(ImportContentionSettings run, ImportContentionSettings asked) =>
        Math.Abs(run.UiWriteShare - asked.UiWriteShare) < 1e-9 && run with { UiWriteShare = asked.UiWriteShare } == asked;

    /// <summary>The size search's limit: the largest threshold a driver on <paramref name="cell"/> asks for, or the evaluation's limit when larger.</summary>
    private int SearchLimit(CapabilityCell cell, int? probedLimit)
    {
        double asked = profile.Drivers.Where(driver => driver.Capability == cell).Select(driver => driver.Threshold).DefaultIfEmpty(1024).Max();
        return (int)Math.Min(int.MaxValue, Math.Max(asked, probedLimit ?? 0));
    }

    private static bool Reuse(OptionEvidence evidence, string measurement, bool enough)
    {
        if (enough)
        {
            evidence.Reused[measurement] = "the capability probes of this run";
        }

        return enough;
    }

    private void Step(string what, OptionEvidence option)
    {
        _stepsDone++;
        option.Steps++;
        double elapsed = Stopwatch.GetElapsedTime(_started).TotalSeconds;
        string left = _stepsDone > 1 ? string.Create(s_numbers, $", about {elapsed / (_stepsDone - 1) * (_steps - _stepsDone + 1):N0} s left") : string.Empty;
        Log(string.Create(s_numbers, $"[{_stepsDone}/{_steps}] {what}{left}"));
    }

    private void Log(string line) => log?.Invoke(line);

    /// <summary>"1 round", "3 rounds".</summary>
    private static string Count(int count, string noun) => string.Create(s_numbers, $"{count} {noun}{(count == 1 ? string.Empty : "s")}");

    /// <summary>
    /// The blocks the directory's files occupy, as <c>du</c> counts them: a file's length overstates a sparse or
    /// preallocated file and understates nothing a store keeps. Falls back to the files' lengths where <c>du</c> cannot run.
    /// </summary>
    private static long DirectoryBytes(string directory)
    {
        try
        {
            using Process? du = Process.Start(
                new ProcessStartInfo("du", ["-s", "-B1", directory]) { RedirectStandardOutput = true, RedirectStandardError = true });
            if (du is not null)
            {
                string output = du.StandardOutput.ReadToEnd();
                du.WaitForExit();
                if (du.ExitCode == 0 && long.TryParse(output.Split('\t', 2)[0], NumberStyles.Integer, s_numbers, out long bytes))
                {
                    return bytes;
                }
            }
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // No du on this machine: the lengths below.
        }

        return Directory.Exists(directory) ? new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Sum(file => file.Length) : 0;
    }
}
