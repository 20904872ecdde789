using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Measuring;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks.Paired;

/// <summary>
/// The adapter ÷ raw-driver ratios of the point operations, measured paired: each row and its raw driver in one
/// process, in alternating blocks (<see cref="PairedRounds"/>), in <see cref="PairedPriceSettings.Processes"/> processes
/// per row and up to <see cref="PairedPriceSettings.MaxProcesses"/> for a cell still inconclusive, each process counted
/// once by the median of its rounds (<see cref="RatioInterval.OfProcesses"/>); beside them the method's null
/// (<see cref="PairedPriceSettings.NullRows"/>), measured alike.
/// BenchmarkDotNet measures each case in a process of its own, minutes apart: the ratio of two such medians carries
/// every difference between two processes and two moments, so two default runs of one build disagree on many verdicts.
/// </summary>
internal static class PairedPrice
{
    /// <summary>
    /// The ratios of every row in <paramref name="rows"/> that has a raw driver, with the null of each of those raw drivers
    /// that <see cref="PairedPriceSettings.NullRows"/> names, and a line for each row whose worker failed.
    /// </summary>
    public static (PairedRatios Ratios, IReadOnlyList<string> Problems) Measure(IEnumerable<string> rows, PairedPriceSettings settings, Action<string> log)
    {
        ArgumentNullException.ThrowIfNull(rows);
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(log);
        string[] measured = [.. rows.Where(row => PointTargets.Names.Contains(RowVariants.Name(row, RowVariantKind.Raw)))];
        string[] nulls = [.. settings.NullRows.Where(raw => measured.Select(row => RowVariants.Name(row, RowVariantKind.Raw)).Contains(raw))];
        Dictionary<string, List<IReadOnlyList<PairedCell>>> workers = measured.Concat(nulls).ToDictionary(
            row => row,
            _ => new List<IReadOnlyList<PairedCell>>());
        var problems = new List<string>();

        // Pass by pass, every row once per pass: a row's processes run minutes apart, not back to back, so what the
        // machine does for a while (another tenant of its caches, its clock) falls on one process of each row, and the
        // interval over the processes sees it instead of moving every process of the row alike.
        for (int process = 0; process < settings.Processes; process++)
        {
            var clock = Stopwatch.StartNew();
            foreach (string row in measured)
            {
                RunWorkerInto(workers[row], problems, row, process, settings, cells: null);
            }

            foreach (string row in nulls)
            {
                RunWorkerInto(workers[row], problems, row, process, settings, NullCells(settings));
            }

            log($"Paired adapter ÷ raw, process {process + 1} of {settings.Processes} of every row: {clock.Elapsed.TotalSeconds:0} s");
        }

        // Then the cells still undecided, alone, one more process each per pass, while the extra time lasts.
        var extra = Stopwatch.StartNew();
        for (int process = settings.Processes; process < settings.MaxProcesses && extra.Elapsed < settings.ExtraTime; process++)
        {
            Dictionary<string, PairedCellKey[]> undecided = measured
                .Select(row => (row, cells: Undecided(workers[row])))
                .Where(pair => pair.cells.Length > 0)
                .ToDictionary(pair => pair.row, pair => pair.cells);
            if (undecided.Count == 0)
            {
                break;
            }

            var clock = Stopwatch.StartNew();
            foreach ((string row, PairedCellKey[] cells) in undecided.TakeWhile(_ => extra.Elapsed < settings.ExtraTime))
            {
                RunWorkerInto(workers[row], problems, row, process, settings, cells);
            }

            log(
                $"Paired adapter ÷ raw, process {process + 1} of the {undecided.Values.Sum(cells => cells.Length)} " +
                    $"cells still inconclusive: {clock.Elapsed.TotalSeconds:0} s");
        }

        List<RowRatio> RatiosOf(IEnumerable<string> sides) => [.. sides.SelectMany(row => workers[row].SelectMany(cells => cells)
            .GroupBy(cell => cell.Key)
            .Select(cell =>
            {
                (double ratio, (double Low, double High)? interval) = Pooled(cell);
                return new RowRatio(
                    cell.Key.Method, cell.Key.ValueBytes, row, PairedPriceWorker.ReferenceOf(row), ratio, interval,
                    cell.Key.Threads, CallTimeOf(cell), cell.Count());
            }))];
        return (new PairedRatios(RatiosOf(measured), settings, RatiosOf(nulls)), problems);
    }

    /// <summary>The cells a null row is measured in: those of the thread table, Get and Put at one thread and at many.</summary>
    private static PairedCellKey[] NullCells(PairedPriceSettings settings) =>
        [.. new[] { PointMethods.Get, PointMethods.Put }.SelectMany(method => new[] { 1, settings.ManyThreads }
            .Select(threads => new PairedCellKey(method, settings.ManyThreadsValueBytes, threads)))];

    /// <summary>
    /// The cells of <paramref name="workers"/> with a goal (<see cref="PointOperationTargets.RatioMethods"/>) that
    /// their processes so far leave inconclusive.
    /// </summary>
    private static PairedCellKey[] Undecided(IEnumerable<IReadOnlyList<PairedCell>> workers) => [.. workers
        .SelectMany(cells => cells)
        .Where(cell => PointOperationTargets.RatioMethods.Contains(cell.Method))
        .GroupBy(cell => cell.Key)
        .Where(cell =>
        {
            (double ratio, (double Low, double High)? interval) = Pooled(cell);
            return PointOperationTargets.RatioVerdict(ratio, interval) == GoalVerdict.Inconclusive;
        })
        .Select(cell => cell.Key)];

    /// <summary>One cell's ratio and interval over the processes that measured it, each counted once (<see cref="RatioInterval.OfProcesses"/>).</summary>
    private static (double Ratio, (double Low, double High)? Interval) Pooled(IEnumerable<PairedCell> processes) =>
        RatioInterval.OfProcesses([.. processes.Select(process => (IReadOnlyList<double>)process.Ratios)]);

    /// <summary>Runs one worker and adds its cells to <paramref name="workers"/>, or a line to <paramref name="problems"/> when it failed.</summary>
    private static void RunWorkerInto(
        List<IReadOnlyList<PairedCell>> workers, List<string> problems, string row, int process,
        PairedPriceSettings settings, IReadOnlyCollection<PairedCellKey>? cells)
    {
        if (RunWorker(row, process, settings, cells) is { } measured)
        {
            workers.Add(measured);
        }
        else
        {
            problems.Add(
                $"The paired measurement of {row} against " +
                    $"{(PairedPriceWorker.IsNull(row) ? "itself" : "its raw driver")} failed in process {process + 1}" +
                    $"; see the lines above.");
        }
    }

    /// <summary>
    /// The raw driver's time per call and what the adapter added to it, each the median over every round of every
    /// process: a ratio over the goal on a call that takes tens of nanoseconds may be a few nanoseconds of the contract.
    /// </summary>
    private static CallTime CallTimeOf(IEnumerable<PairedCell> workers)
    {
        List<(double Ratio, double ReferenceNanoseconds)> rounds = [.. workers.SelectMany(worker => worker.Ratios.Zip(worker.ReferenceNanoseconds))];
        return new CallTime(
            RatioInterval.Median([.. rounds.Select(round => round.ReferenceNanoseconds).Order()]),
            RatioInterval.Median([.. rounds.Select(round => round.ReferenceNanoseconds * (round.Ratio - 1)).Order()]));
    }

    /// <summary>
    /// Runs worker process number <paramref name="process"/> for <paramref name="row"/>, measuring <paramref name="cells"/>
    /// (every cell when <see langword="null"/>); its cells, or <see langword="null"/> when it failed (what it printed is passed on).
    /// </summary>
    private static IReadOnlyList<PairedCell>? RunWorker(string row, int process, PairedPriceSettings settings, IReadOnlyCollection<PairedCellKey>? cells)
    {
        string output = Path.Combine(Path.GetTempPath(), $"kvbench-paired-{Guid.NewGuid():N}.json");
        var start = new ProcessStartInfo(Environment.ProcessPath!) { UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
        {
            start.ArgumentList.Add(typeof(PairedPrice).Assembly.Location);
        }

        foreach (string argument in new[] { PairedPriceWorker.Switch, row, output, process.ToString(CultureInfo.InvariantCulture) })
        {
            start.ArgumentList.Add(argument);
        }

        if (cells is not null)
        {
            start.ArgumentList.Add(PairedCellKey.Format(cells));
        }

        // Tier-up without the runtime's 100 ms wait after startup activity, so a cell's warm-up reaches optimized code.
        start.Environment["DOTNET_TC_CallCountingDelayMs"] = "0";
        try
        {
            using Process worker = Process.Start(start)!;
            if (!worker.WaitForExit(settings.ProcessTimeout))
            {
                worker.Kill(entireProcessTree: true);
                Console.WriteLine($"// The paired worker for {row} ran past {settings.ProcessTimeout.TotalMinutes:0} minutes and was killed.");
                return null;
            }

            return worker.ExitCode == 0 && File.Exists(output) ? JsonSerializer.Deserialize<List<PairedCell>>(File.ReadAllText(output)) : null;
        }
        finally
        {
            File.Delete(output);
        }
    }
}
