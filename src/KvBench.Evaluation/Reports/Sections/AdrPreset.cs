namespace KvBench.Evaluation.Reports.Sections;

/// <summary>How hard an ADR run pushes; each section turns it into its own settings.</summary>
public enum AdrPreset
{
    /// <summary>The evaluation's settings (<c>kvbench adr</c> and the default benchmark run): within the run's budget.</summary>
    Default,

    /// <summary>Smaller stores, shorter loops and workload runs (<c>kvbench adr --quick</c>): every row within a few minutes.</summary>
    Quick,

    /// <summary>Each suite's own defaults and the probes' full search (<c>--full</c>): the longest run.</summary>
    Full,
}
