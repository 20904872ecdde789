using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Workload;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections.Contention;

/// <summary>
/// The question KvBench exists for: the ui's latencies alone and while the cli imports, two real processes on one
/// store, on every row that keeps its data in files. A run with an error, a wrong read or a lost record fails the run.
/// Needs the CLI; <c>kvbench contend</c> runs it longer.
/// </summary>
/// <param name="settings">How the ui-while-the-cli-imports scenario runs.</param>
public sealed class ContentionSection(ImportContentionSettings settings) : AdrSection<ImportContentionSettings>(settings)
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The scenario's settings for <paramref name="preset"/>.</summary>
    public ContentionSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.Choose(quick: ImportContentionSettings.Smoke, evaluation: ImportContentionSettings.Evaluation, full: new ImportContentionSettings()))
    {
    }

    /// <inheritdoc/>
    public override string Name => "contention";

    /// <summary>The ui while the cli imports, per row, when the run measured it.</summary>
    [InResultsFile]
    public IReadOnlyList<ImportContentionResult>? Results { get; set; }

    /// <summary>
    /// The ui while the cli imports on each of <paramref name="rows"/> that keeps files, as <c>kvbench contend</c> runs
    /// it: the section's two tables and its findings, and each row's error, wrong read or lost record as a problem.
    /// </summary>
    public static async Task<RanAlone<IReadOnlyList<ImportContentionResult>>> RunAloneAsync(
        KvBenchCli cli, IEnumerable<string> rows, ImportContentionSettings settings, string workDirectory, Durability durability,
        Action<string>? log = null)
    {
        IReadOnlyList<ImportContentionResult> results =
            await new ImportContention(cli).RunAsync(rows, settings, workDirectory, durability, log).ConfigureAwait(false);
        return Alone(results);
    }

    /// <summary>
    /// What <c>kvbench contend</c> prints of <paramref name="results"/>, measured now or read from its results file.
    /// </summary>
    public static RanAlone<IReadOnlyList<ImportContentionResult>> Alone(IReadOnlyList<ImportContentionResult> results) =>
        RanAlone<IReadOnlyList<ImportContentionResult>>.Of(
            [ContentionTables.Contention(results), ContentionTables.ContentionLatencies(results)],
            results,
            results.Select(result => result.Failure),
            ContentionTables.ContentionFindings(results));

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Cli is null)
        {
            return;
        }

        context.Log("The ui alone and while the cli imports, on every row that keeps its data in files...");
        Results = await new ImportContention(context.Cli, AdrGenerator.MultiProcessTimeouts)
            .RunAsync(StoreCatalog.AvailableNames, Settings, Path.Combine(context.WorkDirectory, "contention"), log: context.Log).ConfigureAwait(false);
        context.Took("The ui while the cli imports");
    }

    /// <summary>"Contention failed: ..." for each row whose run went wrong.</summary>
    public override IReadOnlyList<string> Problems() =>
        [.. (Results ?? []).Select(run => run.Failure).OfType<string>().Select(failure => $"Contention failed: {failure}")];

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        if (Results is not { Count: > 0 } results)
        {
            return;
        }

        StringBuilder output = markdown.Output;
        output.AppendLine("## The UI while the CLI imports").AppendLine();
        WriteMethod(output, results[0]);
        ContentionTables.Contention(results).WriteTo(output);
        foreach (string finding in ContentionTables.ContentionFindings(results))
        {
            output.AppendLine(finding).AppendLine();
        }

        output.AppendLine(
            "Where one process at a time may write (OneWriter), the cli is the writer, since the import is the " +
                "point, and the ui reads as a secondary that catches up with the writer before each look for a " +
                "batch; its workload is then reads only. Where one process at a time may open the store (Exclusive), " +
                "the cli's open beside the ui is refused, and the cell names the typed error it got.").AppendLine();
        output.AppendLine("### The ui's latencies, alone and during the import").AppendLine();
        ContentionTables.ContentionLatencies(results).WriteTo(output);
    }

    /// <summary>What the two processes do and how lag, errors and losses are counted: one paragraph, written a sentence at a time.</summary>
    private static void WriteMethod(StringBuilder output, ImportContentionResult first)
    {
        ImportContentionSettings settings = first.Settings;
        output.Append(s_numbers, $"Two real processes on one store, at {first.Durability} durability. ");
        output.Append(
            s_numbers,
            $"The ui: {settings.UiThreads} threads, {settings.UiOperationsPerSecond:N0} operations per second in all " +
                $"on a fixed schedule (open loop: a latency counts from the operation's intended start, so a stall " +
                $"shows), ");
        output.Append(
            s_numbers,
            $"uniform over {settings.UiRecords:N0} records of {WorkloadSpec.DefaultValueBytes} bytes, " +
                $"{1 - settings.UiWriteShare:0.#%} reads and {settings.UiWriteShare:0.#%} updates (each a new " +
                $"version of a record only that thread writes); ");
        output.Append(
            s_numbers,
            $"{settings.Warmup.TotalSeconds:0.##} s of warm-up, then {settings.Duration.TotalSeconds:0.##} s " +
                $"measured alone, then the same while the cli imports new records in PutMany batches of " +
                $"{settings.BatchSize:N0} at full speed for {settings.ImportDuration.TotalSeconds:0.##} s. ");
        output.Append(
            s_numbers,
            $"Visibility lag: the ui looks for the last record of the cli's next batch every " +
                $"{settings.PollInterval.TotalMilliseconds:0.#} ms; a batch's lag is the ui's clock when a read " +
                $"first found it minus the cli's clock when its PutMany returned. ");
        output.Append(
            "Both are `Stopwatch.GetTimestamp`, which .NET reads from `CLOCK_MONOTONIC` on Linux: one clock for " +
                "every process on the machine, checked on each run by the parent (each worker's first timestamp must " +
                "fall between the parent's before and after). ");
        output.Append("A batch seen before the cli's PutMany returned counts as 0. ");
        output.Append("Errors: every exception either process got from the store and every wrong read. ");
        output.Append(
            "Lost: after both processes ended, every record of every acknowledged batch and every ui record (at the " +
                "version its last acknowledged update wrote) read back byte for byte. ");
        output.AppendLine("Longer runs: `kvbench contend` (5 s per phase).").AppendLine();
    }
}
