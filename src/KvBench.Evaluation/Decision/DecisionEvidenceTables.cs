using System.Globalization;
using System.Text;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>The evidence part of a decision record: every table a figure links to, with how it was measured.</summary>
internal static class DecisionEvidenceTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    public static void Write(StringBuilder output, DecisionEvidence evidence)
    {
        output.AppendLine("## Evidence").AppendLine();
        output.AppendLine("Every figure above links to the table it comes from, here.").AppendLine();
        if (evidence.Floor is not null)
        {
            WriteWorkload(output, evidence);
        }

        if (evidence.Profile.Drivers.Any(driver => DecisionEvidence.PhaseOf(driver) == DecisionPhase.Capabilities))
        {
            WriteCapabilities(output, evidence);
        }

        if (evidence.Profile.Drivers.Any(driver => DecisionEvidence.PhaseOf(driver) == DecisionPhase.Contention))
        {
            WriteContention(output, evidence);
        }

        if (evidence.Profile.Drivers.Any(driver => DecisionEvidence.PhaseOf(driver) == DecisionPhase.Crash))
        {
            WriteCrash(output, evidence);
        }

        if (evidence.Profile.Drivers.Any(driver => DecisionEvidence.PhaseOf(driver) == DecisionPhase.PowerLoss))
        {
            WritePowerLoss(output, evidence);
        }
    }

    private static void WriteWorkload(StringBuilder output, DecisionEvidence evidence)
    {
        DecisionSettings settings = evidence.Settings;
        output.AppendLine("### Workload rounds").AppendLine();
        output.AppendLine(
            s_numbers,
            $"The profile's workload in the measured process: the records loaded in batches of 1,000 and flushed, " +
                $"the store closed (its directory's size then is the bytes on disk), reopened, then {settings.Rounds}" +
                $" rounds on it, each {settings.Warmup.TotalSeconds:0.#} s unmeasured and " +
                $"{settings.Duration.TotalSeconds:0.#} s measured, every read checked against what was written. A " +
                $"figure is the median round, its interval where a further round is expected 95% of the time. The {DecisionMeasurer.FloorRow} " +
                $"row is the floor: an in-memory dictionary, whose rate is what KvBench's runner can drive at all.").AppendLine();
        var table = new MarkdownTable(
            "Option", "Round", "ops/s", "Latency p50 / p99 per operation", "CPU per op", "Allocated per op",
            "Wrong reads", "Load", "On disk per record");
        foreach (OptionEvidence option in WithFloor(evidence))
        {
            if ((Skipped(option, DecisionPhase.Workload) ?? option.WorkloadFailure) is { } failure)
            {
                table.Add(option.Option, "-", "-", failure, "-", "-", "-", "-", "-");
                continue;
            }

            int round = 0;
            foreach (WorkloadResult result in option.Rounds)
            {
                round++;
                string latencies = string.Join(
                    " / ",
                    result.Operations.Select(operation =>
                        $"{operation.Type} {WorkloadCells.Latency(operation.Latency.P50)} / " +
                            $"{WorkloadCells.Latency(operation.Latency.P99)}"));
                table.Add(
                    option.Option,
                    round.ToString(s_numbers),
                    result.OperationsPerSecond.ToString("N0", s_numbers),
                    latencies,
                    result.CpuMicrosecondsPerOperation is { } cpu ? DriverText.Duration(cpu * 1_000) : "-",
                    result.Cost?.AllocatedBytesPerOperation(result.OperationsPerSecond) is { } allocated ? string.Create(s_numbers, $"{allocated:N0} B") : "-",
                    string.Create(s_numbers, $"{result.WrongReads:N0} of {result.CheckedReads:N0}"),
                    round == 1 ? string.Create(s_numbers, $"{option.LoadSeconds:0.#} s") : string.Empty,
                    round == 1 && option.DiskBytes is { } bytes
                        ? string.Create(s_numbers, $"{bytes / (double)evidence.Profile.Workload.Records:N0} B")
                        : string.Empty);
            }
        }

        table.WriteTo(output);
        WriteTwoMethods(output, evidence);
    }

    /// <summary>
    /// The rate measured beside the rate the latencies imply (threads over the mean latency): the two measure the same
    /// operations, and the gap between them is the time each thread spends between operations, in KvBench's runner.
    /// </summary>
    private static void WriteTwoMethods(StringBuilder output, DecisionEvidence evidence)
    {
        if (evidence.Profile.Workload.Rate is not null)
        {
            return;
        }

        output.AppendLine(
            "Two ways to the same rate: the operations completed per second, and the rate the operations' own " +
                "latencies allow (threads ÷ mean latency). They differ by what each thread does between two " +
                "operations, in KvBench's runner and not in the store: picking a key, making the value, checking the " +
                "read, reading the clock. Where the gap is large, the runner bounds the measured rate (†).").AppendLine();
        var table = new MarkdownTable("Option", "Measured ops/s (median round)", "Threads ÷ mean latency", "Runner's share of each operation");
        foreach (OptionEvidence option in WithFloor(evidence))
        {
            if (option.WorkloadFailure is not null || option.Rounds.Count == 0)
            {
                continue;
            }

            WorkloadResult median = option.Rounds.OrderBy(round => round.OperationsPerSecond).ElementAt(option.Rounds.Count / 2);
            double count = median.Operations.Sum(operation => operation.Latency.Count);
            double meanNanoseconds = count == 0 ? double.NaN : median.Operations.Sum(operation => operation.Latency.Mean * operation.Latency.Count) / count;
            double implied = evidence.Profile.Workload.Threads / (meanNanoseconds / 1e9);
            table.Add(
                option.Option,
                median.OperationsPerSecond.ToString("N0", s_numbers),
                double.IsFinite(implied) ? implied.ToString("N0", s_numbers) : "-",
                double.IsFinite(implied) && implied > 0 ? string.Create(s_numbers, $"{Math.Max(0, 1 - (median.OperationsPerSecond / implied)):0%}") : "-");
        }

        table.WriteTo(output);
    }

    /// <summary>"not measured: out on …" when <paramref name="phase"/> was skipped because the option was already out, else <see langword="null"/>.</summary>
    private static string? Skipped(OptionEvidence option, DecisionPhase phase) =>
        option.OutBefore is { } outBefore && !option.Done.Contains(phase) ? $"not measured: already out on {outBefore}" : null;

    private static IEnumerable<OptionEvidence> WithFloor(DecisionEvidence evidence) =>
        evidence.Floor is { } floor ? [.. evidence.Options, floor] : evidence.Options;

    private static void WriteCapabilities(StringBuilder output, DecisionEvidence evidence)
    {
        output.AppendLine("### Capability probes").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Each probe is the capability table's own (`kvbench probe` runs them alone): the longest key and value " +
                $"stored and read back byte for byte, searched up to the largest threshold asked; the store written " +
                $"{evidence.Settings.Probes.GrowthFactor}x its start size without a reopen; two real processes on " +
                $"one store; a prefix scan timed as the store grows " +
                $"{evidence.Settings.Probes.ScanStoreSizes[^1] / evidence.Settings.Probes.ScanStoreSizes[0]}-fold. A " +
                $"measurement this run had already made elsewhere is taken from there, and the last column says so.").AppendLine();
        var table = new MarkdownTable("Option", "Largest key", "Largest value", "Grows without a reopen", "Two processes", "Prefix scans", "Taken from");
        foreach (OptionEvidence option in evidence.Options)
        {
            table.Add(
                option.Option,
                option.Key is { } key ? CapabilityCells.Size(key) : "-",
                option.Value is { } value ? CapabilityCells.Size(value) : "-",
                option.Growth is { } growth ? CapabilityCells.Growth(growth) : "-",
                option.MultiProcess is { } multi ? CapabilityCells.MultiProcess(multi) : "-",
                option.Scan is { } scan ? CapabilityCells.Scan(scan) : "-",
                option.Reused.Count == 0 ? "measured here" : string.Join("; ", option.Reused.Select(entry => $"{entry.Key}: {entry.Value}")));
        }

        table.WriteTo(output);
    }

    private static void WriteContention(StringBuilder output, DecisionEvidence evidence)
    {
        ImportContentionSettings settings = evidence.Profile.Workload.ToContention(evidence.Settings);
        output.AppendLine("### A writer process beside a reader process").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Two real processes on one store at {evidence.Profile.Workload.Durability}: the reader runs " +
                $"{settings.UiThreads} thread{(settings.UiThreads == 1 ? string.Empty : "s")} at " +
                $"{settings.UiOperationsPerSecond:N0} operations a second in all (open loop, so a stall shows as " +
                $"latency), {1 - settings.UiWriteShare:0.#%} gets and {settings.UiWriteShare:0.#%} updates over " +
                $"{settings.UiRecords:N0} records; the writer imports new records in batches of " +
                $"{settings.BatchSize:N0} at full speed. The reader's latencies are measured alone, then while the " +
                $"writer imports; the lag is how long after the writer's batch was acknowledged the reader first saw " +
                $"it. {evidence.Settings.ContentionRounds} run" +
                $"{(evidence.Settings.ContentionRounds == 1 ? string.Empty : "s")} per option; `kvbench contend` " +
                $"runs it longer.").AppendLine();
        var table = new MarkdownTable("Option", "Run", "Reader p99 alone", "Reader p99 while the writer imports", "Visibility lag p99", "Errors", "Lost");
        foreach (OptionEvidence option in evidence.Options)
        {
            if ((Skipped(option, DecisionPhase.Contention) ?? option.ContentionFailure) is { } failure)
            {
                table.Add(option.Option, "-", failure, "-", "-", "-", "-");
                continue;
            }

            int run = 0;
            foreach (ImportContentionResult result in option.Contention)
            {
                run++;
                if (result.NotPossible is { } refused)
                {
                    table.Add(option.Option, run.ToString(s_numbers), $"refused: {refused}", "-", "-", "-", "-");
                    continue;
                }

                table.Add(
                    option.Option,
                    run.ToString(s_numbers),
                    Latencies(result.UiAlone),
                    Latencies(result.UiDuringImport),
                    WorkloadCells.Latency(result.VisibilityLag?.P99),
                    result.Errors.ToString("N0", s_numbers),
                    result.Lost.ToString("N0", s_numbers));
            }
        }

        table.WriteTo(output);

        static string Latencies(WorkloadResult? run) =>
            run is null ? "-" : string.Join(" / ", run.Operations.Select(operation => $"{operation.Type} {WorkloadCells.Latency(operation.Latency.P99)}"));
    }

    private static void WriteCrash(StringBuilder output, DecisionEvidence evidence)
    {
        output.AppendLine("### Crash rounds").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Each round starts a writer process that puts records one at a time and acknowledges each after `Put` " +
                $"returned, kills it with SIGKILL at a random moment (reproducible), reopens the store and reads " +
                $"every acknowledged record back, at {evidence.Profile.Workload.Durability}. Kept is the share of " +
                $"acknowledged records found whole. `kvbench crash` runs more rounds.").AppendLine();
        WriteRounds(output, evidence, DecisionPhase.Crash, option => option.Crash, option => option.CrashFailure);
    }

    private static void WritePowerLoss(StringBuilder output, DecisionEvidence evidence)
    {
        output.AppendLine("### Power-loss rounds").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Each round starts a writer process whose store (a server row's data directory) lies on KvBench's " +
                $"power-cut file system, which keeps written data only once a flush covers it. At a random moment " +
                $"(reproducible) the writer, or the server, is killed and the power cut: what was not flushed is " +
                $"dropped, all of it or all but a prefix with the next write torn. The store is reopened (the server " +
                $"started again) on what was kept and every record acknowledged after `Put` returned is " +
                $"read back, at {evidence.Profile.Workload.Durability}. Kept is the share found whole. " +
                $"`kvbench crash --kill Power` runs more rounds.").AppendLine();
        WriteRounds(output, evidence, DecisionPhase.PowerLoss, option => option.PowerLoss, option => option.PowerLossFailure);
    }

    /// <summary>One row per option of the rounds <paramref name="phase"/> ran, or why they did not run.</summary>
    private static void WriteRounds(
        StringBuilder output, DecisionEvidence evidence, DecisionPhase phase,
        Func<OptionEvidence, CrashRoundsResult?> rounds, Func<OptionEvidence, string?> failure)
    {
        var table = new MarkdownTable("Option", "Rounds", "Acknowledged", "Lost", "Torn", "Reopen failures");
        foreach (OptionEvidence option in evidence.Options)
        {
            if (rounds(option) is { } run)
            {
                table.Add(
                    option.Option,
                    run.Rounds.ToString(s_numbers),
                    run.Acknowledged.ToString("N0", s_numbers),
                    run.Lost.ToString("N0", s_numbers),
                    run.Torn.ToString("N0", s_numbers),
                    run.ReopenFailures.Count == 0 ? "none" : string.Join("; ", run.ReopenFailures));
            }
            else
            {
                table.Add(option.Option, "-", Skipped(option, phase) ?? failure(option) ?? "not measured", "-", "-", "-");
            }
        }

        table.WriteTo(output);
    }
}
