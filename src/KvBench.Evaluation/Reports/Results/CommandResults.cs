using System.Diagnostics.CodeAnalysis;

using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Charts;
using KvBench.Evaluation.Reports.Sections.Contention;
using KvBench.Evaluation.Reports.Sections.Sqlite;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// The results file of a command that runs one suite alone and prints its tables (<c>run</c>, <c>ycsb</c>,
/// <c>sweep</c>, <c>contend</c>, <c>sqlite</c>'s suites), written with <c>--json</c>: <c>kvbench render</c> draws the same tables the command
/// printed, from the same code, then each workload run over time.
/// </summary>
public abstract record CommandResults : ResultsFile
{
    /// <summary>The kind of <c>run</c>'s and <c>ycsb</c>'s files: workload runs and their YCSB table.</summary>
    public const string WorkloadsKind = "workloads";

    /// <summary>The kind of <c>sweep threads</c>' files: workload runs and the thread sweep's rate and cost tables.</summary>
    public const string ThreadSweepKind = "thread-sweep";

    /// <summary>The kind of <c>sweep scale</c>'s files: each row's point at each record count, with its get, put and scan runs.</summary>
    public const string ScaleSweepKind = "scale-sweep";

    /// <summary>The kind of <c>contend</c>'s files: each row's ui alone and beside the cli's import, with both processes' reports.</summary>
    public const string ContentionKind = "contention";

    /// <summary>The kind of <c>sqlite strategies</c>', <c>upsert</c>'s and <c>pragmas</c>' files: workload runs and their thread table.</summary>
    public const string SqliteSweepKind = "sqlite-sweep";

    /// <summary>The kind of <c>sqlite busy</c>'s files: each row's busy-trap result.</summary>
    public const string SqliteBusyKind = "sqlite-busy";

    /// <inheritdoc/>
    private protected CommandResults(string kind)
        : base(kind)
    {
    }

    /// <inheritdoc/>
    [SetsRequiredMembers]
    private protected CommandResults(string kind, string command, DateTimeOffset generatedAt, MachineInfo machine)
        : base(kind, command, generatedAt, machine)
    {
    }

    /// <summary>The tables and notes the command printed.</summary>
    public abstract string Tables();

    /// <summary>
    /// What the command of <paramref name="kind"/> prints of <paramref name="results"/>: the one place a kind says how
    /// it is drawn, for the command and for <c>kvbench render</c>.
    /// </summary>
    /// <exception cref="InvalidOperationException">The kind does not hold results of that type.</exception>
    private protected static string TablesOf(string kind, object results) => (kind, results) switch
    {
        (WorkloadsKind, IReadOnlyList<WorkloadResult> runs) => WorkloadSection.YcsbAlone(runs).Markdown,
        (ThreadSweepKind, IReadOnlyList<WorkloadResult> runs) => WorkloadSection.ThreadSweepAlone(runs).Markdown,
        (ScaleSweepKind, IReadOnlyList<ScalePoint> points) => WorkloadSection.ScaleSweepAlone(points).Markdown,
        (ContentionKind, IReadOnlyList<ImportContentionResult> contention) => ContentionSection.Alone(contention).Markdown,
        (SqliteSweepKind, IReadOnlyList<WorkloadResult> runs) => SqliteSection.SweepAlone(runs).Markdown,
        (SqliteBusyKind, IReadOnlyList<BusyTrapResult> busy) => SqliteSection.BusyTrapAlone(busy).Markdown,
        _ => throw new InvalidOperationException($"A results file of kind '{kind}' does not hold {results.GetType().Name}."),
    };

    /// <summary>The workload runs drawn over time after the tables; none where the tables say all there is.</summary>
    protected abstract IReadOnlyList<WorkloadResult> OverTime();

    /// <inheritdoc/>
    public override Task<ChartImages> RenderAsync(string markdownFile, string source, string? gnuplot = null) =>
        RunsOverTime.WriteAsync(OverTime(), Tables(), markdownFile, source, Machine.Summary(GeneratedAt), gnuplot);
}

/// <summary>A command's results file around what it measured, <typeparamref name="TResults"/>.</summary>
/// <typeparam name="TResults">What the command measured, as it holds it.</typeparam>
public sealed record CommandResults<TResults> : CommandResults
    where TResults : class
{
    /// <summary>A file to read into; its kind is the file's.</summary>
    public CommandResults()
        : base(string.Empty)
    {
    }

    /// <summary><paramref name="results"/> of <paramref name="kind"/>, measured now by <paramref name="command"/> on <paramref name="machine"/>.</summary>
    [SetsRequiredMembers]
    public CommandResults(string kind, string command, MachineInfo machine, TResults results)
        : base(kind, command, DateTimeOffset.UtcNow, machine) => Results = results;

    /// <summary>What the command measured, with the settings, processes and samples of each measurement.</summary>
    public required TResults Results { get; init; }

    /// <inheritdoc/>
    public override string Tables() => TablesOf(Kind, Results);

    /// <inheritdoc/>
    protected override IReadOnlyList<WorkloadResult> OverTime() => Results as IReadOnlyList<WorkloadResult> ?? [];
}
