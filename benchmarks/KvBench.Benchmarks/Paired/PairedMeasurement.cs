using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks.Paired;

/// <summary>The paired adapter ÷ raw measurement (<see cref="PairedPrice"/>) as a step of a run: its progress and failures printed.</summary>
internal static class PairedMeasurement
{
    /// <summary>Measures <paramref name="rows"/> at the default settings; the lines saying which rows failed, also printed.</summary>
    public static IReadOnlyList<string> Measure(IReadOnlyList<string> rows, out PairedRatios paired)
    {
        Console.WriteLine("// Adapter ÷ raw driver, measured paired...");
        (paired, IReadOnlyList<string> problems) = PairedPrice.Measure(rows, PairedPriceSettings.Default, line => Console.WriteLine($"//   {line}"));
        foreach (string problem in problems)
        {
            Console.WriteLine(problem);
        }

        return problems;
    }

    /// <summary>
    /// <see cref="BenchmarkArguments.PairedSwitch"/>: the paired measurement alone (of the rows <paramref name="args"/>
    /// names with <see cref="BenchmarkArguments.RowsSwitch"/>, else every available row), its table and goals printed;
    /// the exit code: 0, 1 when a row failed, 2 for arguments it does not take.
    /// </summary>
    public static int RunAlone(string[] args)
    {
        if (BenchmarkArguments.WithoutRows(args, out IReadOnlyList<string>? rows) is { Length: > 0 } other)
        {
            Console.WriteLine($"{BenchmarkArguments.PairedSwitch} takes only {BenchmarkArguments.RowsSwitch}, not {string.Join(' ', other)}.");
            return 2;
        }

        IReadOnlyList<string> problems = Measure(rows ?? StoreCatalog.AvailableNames, out PairedRatios paired);
        Console.WriteLine(PointOperationReport.ToMarkdown([], paired));
        return problems.Count == 0 ? 0 : 1;
    }
}
