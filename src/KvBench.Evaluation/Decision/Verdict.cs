namespace KvBench.Evaluation.Decision;

/// <summary>How an option's figure stands against a driver's threshold.</summary>
public enum Verdict
{
    /// <summary>The whole interval meets the threshold.</summary>
    Met,

    /// <summary>The whole interval misses the threshold.</summary>
    Missed,

    /// <summary>The interval straddles the threshold: more rounds, or a threshold further away, would say.</summary>
    Undecided,

    /// <summary>The figure could not be measured for this option (the reason is in the figure).</summary>
    Unmeasured,
}
