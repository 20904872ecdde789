using System.Text.Json.Serialization;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>The measurements a decision makes on an option, in the order it makes them.</summary>
public enum DecisionPhase
{
    /// <summary>The capability probes the drivers name.</summary>
    Capabilities,

    /// <summary>Crash rounds at the profile's tier.</summary>
    Crash,

    /// <summary>Power-loss rounds at the profile's tier.</summary>
    PowerLoss,

    /// <summary>The profile's workload in the measured process.</summary>
    Workload,

    /// <summary>A writer process beside a reader process.</summary>
    Contention,
}

/// <summary>Everything measured on one option for a decision: the raw results each figure is read from.</summary>
// A decision's results file fills the measurements read back into the collections the option made.
[JsonObjectCreationHandling(JsonObjectCreationHandling.Populate)]
public sealed class OptionEvidence
{
    /// <summary>The evidence of row <paramref name="option"/>, nothing measured yet.</summary>
    public OptionEvidence(string option) => Option = option;

    [JsonConstructor]
    private OptionEvidence()
        : this(string.Empty)
    {
    }

    /// <summary>The row's name.</summary>
    [JsonInclude]
    public string Option { get; private set; }

    /// <summary>
    /// The must-driver figure that put the option out before every measurement was made, or <see langword="null"/>: the
    /// measurements after it were skipped, since nothing they could show would bring the option back.
    /// </summary>
    public string? OutBefore { get; set; }

    /// <summary>The phases done on this option, whether they measured or failed.</summary>
    public HashSet<DecisionPhase> Done { get; } = [];

    /// <summary>How many measuring steps this option has had, for the progress estimate.</summary>
    internal int Steps { get; set; }

    /// <summary>Why the profile's workload could not run on this option (the tier is not offered, the open failed), or <see langword="null"/>.</summary>
    public string? WorkloadFailure { get; set; }

    /// <summary>The profile's workload, one result per round.</summary>
    public List<WorkloadResult> Rounds { get; } = [];

    /// <summary>How long loading the profile's records took, in seconds.</summary>
    public double LoadSeconds { get; set; }

    /// <summary>The store directory's bytes after the load and a close, or <see langword="null"/> when not measured.</summary>
    public long? DiskBytes { get; set; }

    /// <summary>The longest key stored and read back, when a driver needs it.</summary>
    public SizeMeasurement? Key { get; set; }

    /// <summary>The longest value stored and read back, when a driver needs it.</summary>
    public SizeMeasurement? Value { get; set; }

    /// <summary>Whether the store grew without a reopen, when a driver needs it.</summary>
    public GrowthMeasurement? Growth { get; set; }

    /// <summary>What two processes showed, when a driver needs it.</summary>
    public MultiProcessMeasurement? MultiProcess { get; set; }

    /// <summary>The capability probes that threw, with what they threw: their figures are unmeasured, with this as the reason.</summary>
    public Dictionary<CapabilityCell, string> ProbeFailures { get; } = [];

    /// <summary>Whether prefix scans use an ordered index, when a driver needs it.</summary>
    public ScanMeasurement? Scan { get; set; }

    /// <summary>The writer-beside-reader scenario, one result per run, when a driver needs it.</summary>
    public List<ImportContentionResult> Contention { get; } = [];

    /// <summary>Why the writer-beside-reader scenario could not run, or <see langword="null"/>.</summary>
    public string? ContentionFailure { get; set; }

    /// <summary>Crash rounds at the profile's tier, when a driver needs them.</summary>
    public CrashRoundsResult? Crash { get; set; }

    /// <summary>Why the crash rounds could not run, or <see langword="null"/>.</summary>
    public string? CrashFailure { get; set; }

    /// <summary>Power-loss rounds at the profile's tier, when a driver needs them.</summary>
    public CrashRoundsResult? PowerLoss { get; set; }

    /// <summary>Why the power-loss rounds could not run (no FUSE here, the tier is not offered), or <see langword="null"/>.</summary>
    public string? PowerLossFailure { get; set; }

    /// <summary>
    /// Where each measurement came from when it was not measured for this decision (the evaluation's capability
    /// probes), by measurement name.
    /// </summary>
    public Dictionary<string, string> Reused { get; } = [];
}
