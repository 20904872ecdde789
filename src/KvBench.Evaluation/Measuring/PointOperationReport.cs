using System.Globalization;
using System.Text;

using KvBench.Stores.Baselines;

namespace KvBench.Evaluation.Measuring;

/// <summary>
/// The markdown a decision record needs beside BenchmarkDotNet's own table: adapter ÷ raw-driver ratios, naive ÷ tuned
/// ratios and the goals of <see cref="PointOperationTargets"/>, all from one run.
/// </summary>
public static class PointOperationReport
{
    /// <summary>
    /// Writes the ratio tables and goal checks for <paramref name="results"/> as GitHub markdown; with
    /// <paramref name="paired"/>, the adapter ÷ raw table and its goals come from those ratios instead of from the
    /// medians of <paramref name="results"/>' separate processes. With <paramref name="allocationsAgainstRaw"/>, each
    /// adapter's allocations are held to its raw baseline's (<see cref="PointOperationTargets.Check"/>).
    /// </summary>
    public static string ToMarkdown(IEnumerable<PointResult> results, PairedRatios? paired = null, bool allocationsAgainstRaw = false)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        IReadOnlyList<RowRatio> ratios = PointRatios.Compute(list);
        IReadOnlyList<RowRatio> adapterRatios = paired?.Ratios ?? ratios;
        List<(string Method, int ValueBytes)> columns = [.. list
            .Select(result => (result.Method, result.ValueBytes))
            .Concat(adapterRatios.Select(ratio => (ratio.Method, ratio.ValueBytes)))
            .Distinct()
            .OrderBy(column => IndexOf(column.Method))
            .ThenBy(column => column.ValueBytes)];

        var markdown = new StringBuilder();
        markdown.AppendLine("## Cost of the abstraction: adapter ÷ raw driver").AppendLine();
        markdown.Append(paired is null ? SeparateProcessesMethod : PairedMethod(paired.Settings));
        markdown.AppendLine(
            CultureInfo.InvariantCulture,
            $" Goal: at most {PointOperationTargets.MaxAdapterOverRaw:0.00} for Put, Get and HaveKey, met when the " +
                $"whole interval is under it, missed when the whole interval is over it, inconclusive otherwise.").AppendLine();
        AppendRatioTable(markdown, adapterRatios, columns, RowVariantKind.Adapter, list);
        if (paired is not null)
        {
            AppendExtraProcesses(markdown, paired);
            AppendNull(markdown, paired);
        }

        if (paired is not null && paired.Ratios.Any(ratio => ratio.CallTime is not null))
        {
            markdown.AppendLine().AppendLine("### What the adapter adds per call").AppendLine();
            markdown.AppendLine(
                "The same rounds read as time: the raw driver's time per call in its blocks that followed its own " +
                    "(its caches warm, as a program calling it over and over finds them) and what the adapter added " +
                    "to it (that time by the round's ratio less one), each the median over every round of every " +
                    "process. A fixed price per call (the contract's checks and its lifetime gate, about the same " +
                    "nanoseconds on every row) weighs most on the fastest calls, so a ratio over the goal with an " +
                    "addition no larger than the other rows' is that price, and one with a far larger addition is a " +
                    "slower path in that row's adapter.").AppendLine();
            AppendCallTimeTable(markdown, paired.Ratios, columns);
        }

        if (paired is not null && paired.Ratios.Any(ratio => ratio.Threads > 1))
        {
            PairedPriceSettings settings = paired.Settings;
            markdown.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"### The same at {settings.ManyThreads} threads").AppendLine();
            markdown.AppendLine(
                CultureInfo.InvariantCulture,
                $"Get and Put at {settings.ManyThreadsValueBytes} B, measured paired as above, every block run by " +
                    $"{settings.ManyThreads} threads at once (each on its own block of the keys, through its own " +
                    $"handle), about {settings.ManyThreadsBlock.TotalMilliseconds:0} ms long (threads beyond the " +
                    $"cores wait for time slices, which move a shorter block's time) and timed from the first " +
                    $"thread's start to the last one's end, beside the one-thread ratio. \"not measured\": the raw " +
                    $"driver serves one thread (one connection, read transaction or scratch file).").AppendLine();
            List<(string Method, int ValueBytes, int Threads)> threadColumns = [.. new[] { PointMethods.Get, PointMethods.Put }
                .SelectMany(method => new[] { 1, settings.ManyThreads }.Select(threads => (method, settings.ManyThreadsValueBytes, threads)))];
            AppendThreadedTable(markdown, paired.Ratios, [.. paired.Ratios.Select(ratio => ratio.Row).Distinct()], threadColumns);
        }

        markdown.AppendLine().AppendLine("## Cost of the usage: naive ÷ tuned").AppendLine();
        markdown.AppendLine(
            CultureInfo.InvariantCulture,
            $"Median of a common naive usage divided by the median of the tuned adapter, in the same run, with its " +
                $"{RatioInterval.Confidence:0%} confidence interval.").AppendLine();
        AppendRatioTable(markdown, ratios, columns, RowVariantKind.Naive, list);

        IReadOnlyList<TargetCheck> checks = PointOperationTargets.Check(list, adapterRatios, allocationsAgainstRaw);
        List<TargetCheck> unmet = [.. checks.Where(check => !check.Met).OrderBy(check => check.Verdict)];
        markdown.AppendLine().AppendLine("## Goals").AppendLine();
        markdown.AppendLine(
            CultureInfo.InvariantCulture,
            $"{checks.Count} goals: {Count(checks, GoalVerdict.Met)} met, {Count(checks, GoalVerdict.Missed)} " +
                $"missed, {Count(checks, GoalVerdict.Inconclusive)} inconclusive.");
        if (unmet.Count > 0)
        {
            markdown.AppendLine().AppendLine("| Row | Method | Value bytes | Goal | Measured | Verdict |").AppendLine("|---|---|---:|---|---:|---|");
            foreach (TargetCheck check in unmet)
            {
                markdown.AppendLine(
                    CultureInfo.InvariantCulture,
                    $"| {check.Row} | {check.Method} | {check.ValueBytes} | {check.Goal} | {check.Measured} | " +
                        $"{check.Verdict.ToString().ToLowerInvariant()} |");
            }
        }

        return markdown.ToString();
    }

    /// <summary>A line naming the cells measured in more processes than every cell was, with their counts and verdicts.</summary>
    private static void AppendExtraProcesses(StringBuilder markdown, PairedRatios paired)
    {
        List<RowRatio> extra = [.. paired.Ratios.Where(ratio => ratio.Processes > paired.Settings.Processes)];
        markdown.AppendLine().AppendLine(extra.Count == 0
            ? string.Create(CultureInfo.InvariantCulture, $"No cell needed more than {paired.Settings.Processes} processes.")
            : string.Create(CultureInfo.InvariantCulture, $"Measured in more than {paired.Settings.Processes} processes, being inconclusive after them: ")
                + string.Join("; ", extra.Select(ratio => string.Create(CultureInfo.InvariantCulture,
                    $"{ratio.Row} {ratio.Method} {ratio.ValueBytes} B" +
                        $"{(ratio.Threads == 1 ? string.Empty : $" at {ratio.Threads} threads")} in {ratio.Processes}" +
                        $", " +
                        $"{PointOperationTargets.RatioVerdict(ratio.Value, ratio.Interval).ToString().ToLowerInvariant()}")))
                + ".");
    }

    /// <summary>
    /// The method's null (<see cref="PairedPriceSettings.NullRows"/>): a raw driver against a copy of itself, every cell
    /// of it in one table, and which intervals leave 1 out (one in twenty does by chance; many, or far, says the method
    /// favours a side).
    /// </summary>
    private static void AppendNull(StringBuilder markdown, PairedRatios paired)
    {
        if (paired.Null is not { Count: > 0 } nulls)
        {
            return;
        }

        List<(string Method, int ValueBytes, int Threads)> columns = [.. nulls
            .Select(ratio => (ratio.Method, ratio.ValueBytes, ratio.Threads))
            .Distinct()
            .OrderBy(column => column.Threads)
            .ThenBy(column => IndexOf(column.Method))
            .ThenBy(column => column.ValueBytes)];
        markdown.AppendLine().AppendLine(
            CultureInfo.InvariantCulture,
            $"The method's null: {string.Join(" and ", nulls.Select(ratio => ratio.Row).Distinct())} measured " +
                $"against a second copy of itself exactly as every row is against its raw driver, in the same passes " +
                $"({paired.Settings.Processes} processes, no extra ones). The ratio is 1 in truth, so these " +
                $"intervals are what the method alone makes of no difference, at one thread and at " +
                $"{paired.Settings.ManyThreads}.").AppendLine();
        AppendThreadedTable(markdown, nulls, [.. nulls.Select(ratio => ratio.Row).Distinct()], columns);
        List<RowRatio> biased = [.. nulls.Where(ratio => ratio.Interval is { } interval && (interval.Low > 1 || interval.High < 1))];
        markdown.AppendLine().AppendLine(biased.Count == 0
            ? "Every interval of the null holds 1."
            : string.Create(
                CultureInfo.InvariantCulture,
                $"{biased.Count} of {nulls.Count} intervals of the null leave 1 out, where chance alone leaves out " +
                    $"one in {1 / (1 - RatioInterval.Confidence):0}: ")
                + string.Join(
                    "; ",
                    biased.Select(ratio =>
                        string.Create(
                            CultureInfo.InvariantCulture,
                            $"{ratio.Method} {ratio.ValueBytes} B at {ratio.Threads} thread" +
                                $"{(ratio.Threads == 1 ? string.Empty : "s")}, {ratio.Formatted}")))
                + ".");
    }

    private static string SeparateProcessesMethod { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"Median of the adapter row divided by the median of the same operations written directly against the " +
            $"store's package, each measured by BenchmarkDotNet in a process of its own in this run, with its " +
            $"{RatioInterval.Confidence:0%} confidence interval in brackets (a bootstrap over both rows' iterations: " +
            $"it cannot see what differs between two processes, so read its verdicts as a screen).");

    private static string PairedMethod(PairedPriceSettings settings) => string.Create(
        CultureInfo.InvariantCulture,
        $"Time of the adapter divided by that of the same operations written directly against the store's package, " +
            $"measured paired: both loaded alike in one process and called in alternating blocks of the same " +
            $"operations (about {settings.Block.TotalMilliseconds:0} ms each; {settings.Rounds} rounds, each two " +
            $"blocks a side in ABBA order so that each side runs one block after its own and one after the other's, " +
            $"after at least {settings.Warmup.TotalMilliseconds:0} ms of warm-up and once the JIT had gone quiet), " +
            $"in {settings.Processes} processes per row, taking turns at loading the raw driver first; a cell whose " +
            $"goal was still inconclusive then was measured again, alone with its row's other undecided cells, in " +
            $"one more process per pass, until it was decided or had {settings.MaxProcesses} processes, while " +
            $"{settings.ExtraTime.TotalSeconds:0} s lasted (the cells measured so are listed under the table). Each " +
            $"process counts once, by the median of its rounds: what differs between processes (code layout, the " +
            $"heap's pages, the JIT's choices) holds for all of a process's rounds and moves a fast row by more than " +
            $"the goal. The ratio is the geometric mean of the processes' medians; in brackets its " +
            $"{RatioInterval.Confidence:0%} confidence interval, Student's t over their logarithms, so it is as wide " +
            $"as the processes disagree and as few as they are. Not BenchmarkDotNet's numbers: its cases run in " +
            $"separate processes minutes apart, and the ratio of two of its medians carries every difference between " +
            $"the two.");

    /// <summary>
    /// Adapter ÷ raw driver for each method and thread count, as GitHub markdown: what the contract costs when several
    /// threads call at once. A row whose raw driver serves one thread has ratios at one thread only.
    /// </summary>
    public static string ThreadedToMarkdown(IEnumerable<PointResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        List<PointResult> list = [.. results];
        IReadOnlyList<RowRatio> ratios = PointRatios.Compute(list);
        List<(string Method, int ValueBytes, int Threads)> columns = [.. list
            .Select(result => (result.Method, result.ValueBytes, result.Threads))
            .Distinct()
            .OrderBy(column => IndexOf(column.Method))
            .ThenBy(column => column.ValueBytes)
            .ThenBy(column => column.Threads)];
        List<string> rows = [.. list.Select(result => result.Row).Distinct().Where(row => RowVariants.Parse(row).Kind == RowVariantKind.Adapter)];

        var markdown = new StringBuilder();
        markdown.AppendLine("## Cost of the contract under threads: adapter ÷ raw driver").AppendLine();
        markdown.AppendLine(
            CultureInfo.InvariantCulture,
            $"Median time per operation (the run's wall time over every thread's operations) of the adapter divided " +
                $"by that of the raw driver at the same number of threads, in the same run, with its " +
                $"{RatioInterval.Confidence:0%} confidence interval. \"not measured\": the raw driver serves one " +
                $"thread.").AppendLine();
        AppendThreadedTable(markdown, ratios, rows, columns);
        return markdown.ToString();
    }

    /// <summary>One row per adapter in <paramref name="rows"/>, one column per method, value size and thread count.</summary>
    private static void AppendThreadedTable(
        StringBuilder markdown, IReadOnlyList<RowRatio> ratios, List<string> rows,
        List<(string Method, int ValueBytes, int Threads)> columns)
    {
        markdown.Append("| Row | vs |");
        columns.ForEach(column =>
            markdown.Append(
                CultureInfo.InvariantCulture,
                $" {column.Method} {column.ValueBytes} B, {column.Threads} thread{(column.Threads == 1 ? string.Empty : "s")} |"));
        markdown.AppendLine().Append("|---|---|");
        columns.ForEach(_ => markdown.Append("---:|"));
        markdown.AppendLine();
        foreach (string row in rows)
        {
            string? reference = ratios.FirstOrDefault(ratio => ratio.Row == row)?.Reference ?? RowVariants.ReferenceOf(row);
            markdown.Append(CultureInfo.InvariantCulture, $"| {row} | {reference} |");
            foreach ((string method, int valueBytes, int threads) in columns)
            {
                RowRatio? ratio = ratios.FirstOrDefault(ratio =>
                    ratio.Row == row && ratio.Method == method && ratio.ValueBytes == valueBytes && ratio.Threads == threads);
                markdown.Append(ratio is null ? " not measured |" : $" {ratio.Formatted} |");
            }

            markdown.AppendLine();
        }
    }

    /// <summary>One row per paired adapter, one column per method and value size: "+31 ns on 152 ns" at one thread.</summary>
    private static void AppendCallTimeTable(StringBuilder markdown, IReadOnlyList<RowRatio> ratios, List<(string Method, int ValueBytes)> columns)
    {
        markdown.Append("| Row | vs |");
        columns.ForEach(column => markdown.Append(CultureInfo.InvariantCulture, $" {column.Method} {column.ValueBytes} B |"));
        markdown.AppendLine().Append("|---|---|");
        columns.ForEach(_ => markdown.Append("---:|"));
        markdown.AppendLine();
        foreach (string row in ratios.Where(ratio => ratio.CallTime is not null).Select(ratio => ratio.Row).Distinct())
        {
            markdown.Append(CultureInfo.InvariantCulture, $"| {row} | {RowVariants.ReferenceOf(row)} |");
            foreach ((string method, int valueBytes) in columns)
            {
                CallTime? time = ratios.FirstOrDefault(ratio =>
                    ratio.Row == row && ratio.Method == method && ratio.ValueBytes == valueBytes && ratio.Threads == 1)?.CallTime;
                markdown.Append(time is null ? " not measured |" : $" {time.Formatted} |");
            }

            markdown.AppendLine();
        }
    }

    private static void AppendRatioTable(
        StringBuilder markdown,
        IReadOnlyList<RowRatio> ratios,
        List<(string Method, int ValueBytes)> columns,
        RowVariantKind kind,
        List<PointResult> results)
    {
        List<string> rows = [.. results
            .Select(result => result.Row)
            .Concat(ratios.Select(ratio => ratio.Row))
            .Distinct()
            .Where(row => RowVariants.Parse(row).Kind == kind)];
        if (rows.Count == 0)
        {
            markdown.AppendLine("No such rows were measured.");
            return;
        }

        markdown.Append("| Row | vs |");
        columns.ForEach(column => markdown.Append(CultureInfo.InvariantCulture, $" {column.Method} {column.ValueBytes} B |"));
        markdown.AppendLine().Append("|---|---|");
        columns.ForEach(_ => markdown.Append("---:|"));
        markdown.AppendLine();
        foreach (string row in rows)
        {
            // A row with no such baseline at all (LiteDB_Direct: LiteDB's raw usage is one, measured beside LiteDB) says
            // so once, rather than "not measured" in every column.
            string? reference = RowVariants.ReferenceOf(row);
            if (!results.Any(result => result.Row == reference) && !ratios.Any(ratio => ratio.Row == row))
            {
                markdown.Append(CultureInfo.InvariantCulture, $"| {row} | no {reference ?? "reference"} row |");
                columns.ForEach(_ => markdown.Append(" - |"));
                markdown.AppendLine();
                continue;
            }

            markdown.Append(CultureInfo.InvariantCulture, $"| {row} | {reference} |");
            foreach ((string method, int valueBytes) in columns)
            {
                RowRatio? ratio = ratios.FirstOrDefault(ratio =>
                    ratio.Row == row && ratio.Method == method && ratio.ValueBytes == valueBytes && ratio.Threads == 1);
                markdown.Append(ratio is null ? " not measured |" : $" {ratio.Formatted} |");
            }

            markdown.AppendLine();
        }
    }

    private static int Count(IEnumerable<TargetCheck> checks, GoalVerdict verdict) => checks.Count(check => check.Verdict == verdict);

    private static int IndexOf(string method)
    {
        int index = PointMethods.All.ToList().IndexOf(method);
        return index < 0 ? int.MaxValue : index;
    }
}
