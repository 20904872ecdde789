using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Probes;

namespace KvBench.Evaluation.Decision;

/// <summary>How hard <c>kvbench decide</c> measures; the defaults keep a profile of eight candidates within its budget.</summary>
public sealed record DecisionSettings
{
    /// <summary>
    /// Rounds of the profile's workload per option, each on the same loaded store: a figure is their median, its interval
    /// where a further round is expected (<see cref="Figure.FromRounds"/>). Default: 3: from two, that interval is
    /// seldom narrow enough to tell options apart; a close call between two options shows as overlapping intervals, and
    /// the outcome names a tie rather than pick one.
    /// </summary>
    public int Rounds { get; init; } = 3;

    /// <summary>Each round's unmeasured start. Default: 0.5 s.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(0.5);

    /// <summary>Each round's measured window. Default: 2 s.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Crash rounds per option at the profile's tier, for a crash driver. Default: 3.</summary>
    public int CrashRounds { get; init; } = 3;

    /// <summary>
    /// Power-loss rounds per option at the profile's tier, for a power-loss driver. Default: 3, as the crash rounds:
    /// a Synced row that skips a flush loses records in most rounds, so a few show it.
    /// </summary>
    public int PowerLossRounds { get; init; } = 3;

    /// <summary>Runs of the writer-beside-reader scenario per option, for latency-while-writing and visibility drivers. Default: 2.</summary>
    public int ContentionRounds { get; init; } = 2;

    /// <summary>How long each phase of that scenario is measured. Default: 1.5 s.</summary>
    public TimeSpan ContentionDuration { get; init; } = TimeSpan.FromSeconds(1.5);

    /// <summary>The records the writer-beside-reader scenario loads at most; the profile's record count when smaller. Default: 10,000.</summary>
    public long ContentionRecords { get; init; } = 10_000;

    /// <summary>The prefix-scan and growth probes' settings. Default: the quick probes, which still grow each store 256-fold.</summary>
    public ProbeSettings Probes { get; init; } = ProbeSettings.Quick;

    /// <summary>
    /// Whether an option a must-driver has put out is measured on every other driver too. Default: no; its pros and
    /// cons then say which figures were not measured and why, and what would change the decision can only bring it back
    /// as far as its measured figures allow.
    /// </summary>
    public bool MeasureEveryOption { get; init; }

    /// <summary>
    /// The evaluation's: one-second rounds, and the writer-beside-reader scenario at the contention section's own
    /// settings, so a profile that states the same reader takes that section's runs instead of measuring them again.
    /// </summary>
    public static DecisionSettings Evaluation { get; } = new()
    {
        Duration = TimeSpan.FromSeconds(1),
        CrashRounds = 2,
        PowerLossRounds = 2,
        ContentionRounds = 1,
        ContentionDuration = ImportContentionSettings.Evaluation.Duration,
        ContentionRecords = ImportContentionSettings.Evaluation.UiRecords,
    };

    /// <summary>Smaller and shorter, for tests: one-second rounds.</summary>
    public static DecisionSettings Smoke { get; } = new()
    {
        Rounds = 2,
        Warmup = TimeSpan.FromMilliseconds(100),
        Duration = TimeSpan.FromMilliseconds(400),
        CrashRounds = 1,
        PowerLossRounds = 1,
        ContentionRounds = 1,
        ContentionDuration = TimeSpan.FromMilliseconds(500),
        ContentionRecords = 1_000,
    };
}
