using System.Globalization;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>What a decision measured, and each option's figure for each driver read from it: one measurement per figure.</summary>
/// <param name="profile">The profile measured for.</param>
/// <param name="settings">How hard it measured.</param>
/// <param name="options">The candidates' evidence, in the order considered.</param>
/// <param name="floor">The floor row's workload, or <see langword="null"/> when no driver ran the workload.</param>
public sealed class DecisionEvidence(DecisionProfile profile, DecisionSettings settings, IReadOnlyList<OptionEvidence> options, OptionEvidence? floor)
{
    /// <summary>The anchor of the workload rounds' table in the record.</summary>
    public const string WorkloadAnchor = "workload-rounds";

    /// <summary>The anchor of the capability probes' table.</summary>
    public const string CapabilityAnchor = "capability-probes";

    /// <summary>The anchor of the writer-beside-reader table.</summary>
    public const string ContentionAnchor = "a-writer-process-beside-a-reader-process";

    /// <summary>The anchor of the crash rounds' table.</summary>
    public const string CrashAnchor = "crash-rounds";

    /// <summary>The anchor of the power-loss rounds' table.</summary>
    public const string PowerLossAnchor = "power-loss-rounds";

    /// <summary>
    /// How many times the floor's CPU per operation an option may spend and still have its throughput called bounded by
    /// KvBench's runner: at twice the floor or less, at least half of what the option's operation costs is the runner's
    /// own (picking a key, making and checking a value, timing), so its rate says more about KvBench than the store.
    /// </summary>
    public const double RunnerBoundFactor = 2;

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The profile.</summary>
    public DecisionProfile Profile { get; } = profile;

    /// <summary>The settings.</summary>
    public DecisionSettings Settings { get; } = settings;

    /// <summary>The candidates' evidence.</summary>
    public IReadOnlyList<OptionEvidence> Options { get; } = options;

    /// <summary>The floor row's workload rounds.</summary>
    public OptionEvidence? Floor { get; } = floor;

    /// <summary>Every option's figures, in the profile's driver order.</summary>
    public IReadOnlyList<OptionFigures> Figures() =>
        [.. Options.Select(option => new OptionFigures(option.Option, [.. Profile.Drivers.Select(driver => FigureOf(option, driver))]))];

    /// <summary>The floor's median CPU per operation in nanoseconds, or <see langword="null"/> when it was not measured.</summary>
    public double? FloorCpuNanoseconds => Floor is { WorkloadFailure: null, Rounds.Count: > 0 } floor
        ? Figure.FromRounds([.. floor.Rounds.Select(round => (round.CpuMicrosecondsPerOperation ?? double.NaN) * 1_000)], WorkloadAnchor).Value
        : null;

    /// <summary>The phase that measures <paramref name="driver"/>'s figure.</summary>
    public static DecisionPhase PhaseOf(Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.Quantity switch
        {
            DriverQuantity.Capability => DecisionPhase.Capabilities,
            DriverQuantity.CrashKept => DecisionPhase.Crash,
            DriverQuantity.PowerLossKept => DecisionPhase.PowerLoss,
            DriverQuantity.VisibilityLag => DecisionPhase.Contention,
            DriverQuantity.Latency when driver.WhileWriting => DecisionPhase.Contention,
            _ => DecisionPhase.Workload,
        };
    }

    /// <summary>Whether the phase that measures <paramref name="driver"/> has been done on <paramref name="option"/>.</summary>
    public static bool IsMeasuredYet(OptionEvidence option, Driver driver)
    {
        ArgumentNullException.ThrowIfNull(option);
        return option.Done.Contains(PhaseOf(driver));
    }

    /// <summary><paramref name="option"/>'s figure for <paramref name="driver"/>.</summary>
    public Figure FigureOf(OptionEvidence option, Driver driver)
    {
        ArgumentNullException.ThrowIfNull(option);
        ArgumentNullException.ThrowIfNull(driver);
        if (option.OutBefore is { } outBefore && !IsMeasuredYet(option, driver))
        {
            return Figure.Missing($"already out on {outBefore}", Anchor(PhaseOf(driver))) with { Skipped = true };
        }

        return driver.Quantity switch
        {
            DriverQuantity.Capability => Capability(option, driver.Capability!.Value),
            DriverQuantity.Throughput => WorkloadFigure(option, round => round.OperationsPerSecond, limited: true),
            DriverQuantity.Latency when driver.WhileWriting => ContentionLatency(option, driver),
            DriverQuantity.Latency =>
                WorkloadFigure(option, round =>
                    round.Of(driver.Operation!.Value) is { } operation ? Percentile(operation.Latency, driver.Percentile) : double.NaN),
            DriverQuantity.CpuPerOperation => WorkloadFigure(option, round => (round.CpuMicrosecondsPerOperation ?? double.NaN) * 1_000),
            DriverQuantity.AllocatedBytesPerOperation =>
                WorkloadFigure(option, round => round.Cost?.AllocatedBytesPerOperation(round.OperationsPerSecond) ?? double.NaN),
            DriverQuantity.DiskBytesPerRecord => option.WorkloadFailure is { } failure ? Figure.Missing(failure, WorkloadAnchor)
                : option.DiskBytes is { } bytes ? Figure.Once(bytes / (double)Profile.Workload.Records, WorkloadAnchor)
                : Figure.Missing("not measured", WorkloadAnchor),
            DriverQuantity.VisibilityLag => ContentionFigure(option, run => run.VisibilityLag?.P99 ?? double.NaN, "no batch of the writer was seen"),
            DriverQuantity.CrashKept => Kept(option.Crash, option.CrashFailure, CrashAnchor),
            DriverQuantity.PowerLossKept => Kept(option.PowerLoss, option.PowerLossFailure, PowerLossAnchor),
            _ => Figure.Missing($"{driver.Quantity} is not measured", WorkloadAnchor),
        };
    }

    /// <summary>The anchor of the table <paramref name="phase"/> writes.</summary>
    public static string Anchor(DecisionPhase phase) => phase switch
    {
        DecisionPhase.Capabilities => CapabilityAnchor,
        DecisionPhase.Crash => CrashAnchor,
        DecisionPhase.PowerLoss => PowerLossAnchor,
        DecisionPhase.Contention => ContentionAnchor,
        _ => WorkloadAnchor,
    };

    /// <summary><paramref name="latency"/>'s <paramref name="percentile"/>: one of those a histogram summary keeps, as the profile reader allows.</summary>
    public static double Percentile(LatencySummary latency, double percentile)
    {
        ArgumentNullException.ThrowIfNull(latency);
        return percentile switch
        {
            50 => latency.P50,
            95 => latency.P95,
            99 => latency.P99,
            99.9 => latency.P999,
            100 => latency.Max,
            _ =>
                throw new ArgumentOutOfRangeException(
                    nameof(percentile),
                    percentile,
                    "A latency summary keeps the 50th, 95th, 99th and 99.9th percentiles and the largest latency."),
        };
    }

    private Figure WorkloadFigure(OptionEvidence option, Func<WorkloadResult, double> read, bool limited = false)
    {
        if (option.WorkloadFailure is { } failure)
        {
            return Figure.Missing(failure, WorkloadAnchor);
        }

        WorkloadResult? failed = option.Rounds.FirstOrDefault(round => !round.Succeeded);
        if (failed is not null)
        {
            return Figure.Missing($"the run went wrong: {failed.Failure}", WorkloadAnchor);
        }

        double[] values = [.. option.Rounds.Select(read).Where(double.IsFinite)];
        if (values.Length == 0)
        {
            return Figure.Missing("the workload has no such operation", WorkloadAnchor);
        }

        Figure figure = Figure.FromRounds(values, WorkloadAnchor);
        double optionCpu = Figure.FromRounds(
            [.. option.Rounds.Select(round => (round.CpuMicrosecondsPerOperation ?? double.NaN) * 1_000)],
            WorkloadAnchor).Value;
        return limited && FloorCpuNanoseconds is { } floorCpu && double.IsFinite(optionCpu) && optionCpu <= RunnerBoundFactor * floorCpu
            ? figure with
            {
                LimitedBy = string.Create(
                    s_numbers,
                    $"its CPU per operation is at most {RunnerBoundFactor:0}x the {DecisionMeasurer.FloorRow} " +
                        $"floor's, so KvBench's runner bounds its rate"),
            }
            : figure;
    }

    private Figure ContentionLatency(OptionEvidence option, Driver driver)
    {
        OperationType operation = driver.Operation!.Value;
        if (operation is not (OperationType.Read or OperationType.Update))
        {
            return Figure.Missing("the reader process runs gets and updates only", ContentionAnchor);
        }

        return ContentionFigure(
            option,
            run => run.UiDuringImport?.Of(operation) is { } result ? Percentile(result.Latency, driver.Percentile) : double.NaN,
            "the reader ran no such operation while the writer imported");
    }

    private static Figure ContentionFigure(OptionEvidence option, Func<ImportContentionResult, double> read, string noValue)
    {
        if (option.ContentionFailure is { } failure)
        {
            return Figure.Missing(failure, ContentionAnchor);
        }

        if (option.Contention.FirstOrDefault(run => run.NotPossible is not null) is { } refused)
        {
            return Figure.Missing($"the second process could not open the store beside the first ({refused.NotPossible})", ContentionAnchor);
        }

        if (option.Contention.FirstOrDefault(run => !run.Succeeded) is { } failed)
        {
            return Figure.Missing($"the run went wrong: {failed.Failure}", ContentionAnchor);
        }

        double[] values = [.. option.Contention.Select(read).Where(double.IsFinite)];
        return values.Length == 0 ? Figure.Missing(noValue, ContentionAnchor) : Figure.FromRounds(values, ContentionAnchor);
    }

    /// <summary>The share of acknowledged records that <paramref name="rounds"/> found whole; none when a reopen failed.</summary>
    private static Figure Kept(CrashRoundsResult? rounds, string? failure, string anchor)
    {
        if (failure is not null)
        {
            return Figure.Missing(failure, anchor);
        }

        if (rounds is null)
        {
            return Figure.Missing("not measured", anchor);
        }

        if (rounds.ReopenFailures.Count > 0)
        {
            return Figure.Once(0, anchor);
        }

        double kept = rounds.Acknowledged == 0 ? double.NaN : (rounds.Acknowledged - rounds.Lost - rounds.Torn) / (double)rounds.Acknowledged;
        return double.IsNaN(kept)
            ? Figure.Missing("no write was acknowledged before the kill", anchor)
            : new Figure(kept, kept, kept, rounds.Rounds, anchor);
    }

    /// <summary>The largest size stored; one that reached the search's limit is a floor of what the store takes.</summary>
    private static Figure Size(SizeMeasurement size) => Figure.Once(size.LargestAcceptedBytes, CapabilityAnchor) with
    {
        LimitedBy = size.ReachedSearchLimit ? $"the search stopped at {Reports.Sections.CapabilityCells.Bytes(size.SearchLimitBytes)}, which it stored" : null,
    };

    private static Figure Capability(OptionEvidence option, CapabilityCell cell)
    {
        if (option.WorkloadFailure is { } failure && failure.StartsWith("not available", StringComparison.Ordinal))
        {
            return Figure.Missing(failure, CapabilityAnchor);
        }

        if (option.ProbeFailures.TryGetValue(cell, out string? probeFailure))
        {
            return Figure.Missing($"the probe failed: {probeFailure}", CapabilityAnchor);
        }

        return cell switch
        {
            CapabilityCell.KeyBytes => option.Key is { } key ? Size(key) : Figure.Missing("not probed", CapabilityAnchor),
            CapabilityCell.ValueBytes => option.Value is { } value ? Size(value) : Figure.Missing("not probed", CapabilityAnchor),
            CapabilityCell.Growth =>
                option.Growth is { } growth
                    ? Figure.Once(growth.Grew ? 1 : 0, CapabilityAnchor)
                    : Figure.Missing("not probed", CapabilityAnchor),
            CapabilityCell.OrderedScans => option.Scan is { } scan
                ? scan.Indexed is { } indexed ? Figure.Once(indexed ? 1 : 0, CapabilityAnchor) : new Figure(0.5, 0, 1, scan.Rounds, CapabilityAnchor)
                : Figure.Missing("not probed", CapabilityAnchor),
            CapabilityCell.MultiProcessWriters => option.MultiProcess is { } multi
                ? multi.Measured is { } level
                    ? Figure.Once(level == MultiProcessLevel.Shared ? 1 : 0, CapabilityAnchor)
                    : Figure.Missing("the two processes showed no consistent level", CapabilityAnchor)
                : Figure.Missing("no kvbench CLI to start as the second process", CapabilityAnchor),
            _ => Figure.Missing($"{cell} is not probed", CapabilityAnchor),
        };
    }
}
