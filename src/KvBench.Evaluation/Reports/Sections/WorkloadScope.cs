using KvBench.Core;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections;

/// <summary>Which rows a <see cref="WorkloadSection"/> runs and at which tier: the embedded rows of the default evaluation, or the server section's.</summary>
public sealed record WorkloadScope
{
    /// <summary>The default evaluation's: every embedded row available here, at Buffered, under the chapter "Workloads".</summary>
    public static WorkloadScope Embedded { get; } = new() { Rows = () => StoreCatalog.AvailableNames };

    /// <summary>The rows, asked when the section measures (a server section knows which servers started only then). Required.</summary>
    public required Func<IReadOnlyList<string>> Rows { get; init; }

    /// <summary>The tier every row is opened at. Default: <see cref="Durability.Buffered"/>.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>
    /// What the ids of the section's charts start with, so that two sections' charts of one kind (the thread sweep's)
    /// are two files. Default: nothing, the embedded section's ids.
    /// </summary>
    public string ChartPrefix { get; init; } = string.Empty;

    /// <summary>What the suites open a row with, given its directory.</summary>
    internal StoreOptions OptionsFor(string directory) => new() { Directory = directory, Durability = Durability };
}
