using System.Globalization;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;

using BenchmarkDotNet.Attributes;

using KvBench.Benchmarks.Targets;
using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks.Paired;

/// <summary>
/// One process of the paired measurement: a row and its raw driver (or, for a raw driver named as the row, a second copy
/// of itself: the method's null, <see cref="PairedPriceSettings.NullRows"/>), each loaded on a directory of its own at every value
/// size <see cref="PointOperations"/> measures, every method measured in <see cref="PairedRounds"/>, reads before Put
/// (a Put rewrites the dataset, equally often on both sides), Get and Put also from
/// <see cref="PairedPriceSettings.ManyThreads"/> threads where the raw driver serves many, the results written as JSON
/// to a file.
/// </summary>
internal static class PairedPriceWorker
{
    /// <summary>
    /// The switch that starts a worker: <c>--paired-price-worker ROW OUTPUT-FILE PROCESS [CELLS]</c>, PROCESS counting
    /// from 0, CELLS (<see cref="PairedCellKey.Format"/>) the only cells to measure, every cell without it.
    /// </summary>
    public const string Switch = "--paired-price-worker";

    /// <summary>The methods in the order a worker measures them: the reads, then Put.</summary>
    private static readonly string[] s_methods = [PointMethods.Get, PointMethods.GetArray, PointMethods.HaveKey, PointMethods.Put];

    /// <summary>The value sizes <see cref="PointOperations"/> measures, read from its parameter so the two never differ.</summary>
    public static IReadOnlyList<int> ValueSizes { get; } =
        [.. typeof(PointOperations).GetProperty(nameof(PointOperations.ValueBytes))!.GetCustomAttribute<ParamsAttribute>()!.Values.Cast<int>()];

    /// <summary>The worker process's entry: 0 when every cell was measured and written, 1 (with one line saying why) otherwise.</summary>
    public static int RunProcess(string row, string output, string process, string? cells)
    {
        try
        {
            if (!int.TryParse(process, CultureInfo.InvariantCulture, out int number) || number < 0)
            {
                throw new ArgumentException($"'{process}' is not a process number (0 or more).", nameof(process));
            }

            Run(
                row, output, PairedPriceSettings.Default, PointOperations.DefaultRecordCount,
                referenceFirst: number % 2 == 1, cells is null ? null : PairedCellKey.Parse(cells));
            return 0;
        }
        catch (Exception error) when (error is KeyValueStoreException or InvalidDataException or IOException or ArgumentException)
        {
            Console.WriteLine($"// The paired measurement of {row} failed: {error.GetType().Name}: {error.Message}");
            return 1;
        }
    }

    /// <summary>
    /// Measures <paramref name="row"/> against its raw driver on <paramref name="requestedRecords"/> records (fewer where
    /// <see cref="PreloadedRecords"/> says so, as in the benchmarks) and writes the cells to <paramref name="output"/>.
    /// The side loaded first gets the heap and the files first; <paramref name="referenceFirst"/> turns the order round,
    /// and the processes of a row take turns, so what the order favours falls on both sides and into the interval.
    /// With <paramref name="only"/>, only those cells are measured (in their usual order), and only the value sizes they
    /// need are loaded.
    /// </summary>
    public static void Run(
        string row, string output, PairedPriceSettings settings, int requestedRecords, bool referenceFirst = false,
        IReadOnlySet<PairedCellKey>? only = null)
    {
        bool Wanted(string method, int valueBytes, int threads) => only is null || only.Contains(new PairedCellKey(method, valueBytes, threads));

        string raw = ReferenceOf(row);
        int count = PreloadedRecords.For(row, requestedRecords);
        string root = Path.Combine(Path.GetTempPath(), "kvbench-paired", Guid.NewGuid().ToString("N"));
        var cells = new List<PairedCell>();
        try
        {
            foreach (int valueBytes in ValueSizes.Where(size => PointTargets.Measures(raw, size) && PointTargets.Measures(row, size)
                && (only is null || only.Any(cell => cell.ValueBytes == size))))
            {
                PairedSide LoadRow() => PairedSide.Load(row, Path.Combine(root, $"{PairedRole.Row}-{valueBytes}"), valueBytes, count, PairedRole.Row);
                PairedSide LoadReference() =>
                    PairedSide.Load(
                        raw,
                        Path.Combine(root, $"{PairedRole.Reference}-{valueBytes}"),
                        valueBytes,
                        count,
                        PairedRole.Reference);
                using PairedSide first = referenceFirst ? LoadReference() : LoadRow();
                using PairedSide second = referenceFirst ? LoadRow() : LoadReference();
                PairedSide adapter = referenceFirst ? second : first;
                PairedSide baseline = referenceFirst ? first : second;
                bool manyThreads = valueBytes == settings.ManyThreadsValueBytes && settings.ManyThreads > 1 && PointTargets.ServesManyThreads(raw);
                foreach (string method in s_methods.Where(method => PointOperations.MeasuresAt(method, valueBytes)))
                {
                    if (Wanted(method, valueBytes, 1))
                    {
                        cells.Add(PairedCell.Of(method, valueBytes, PairedRounds.Measure(adapter, baseline, method, settings)));
                    }

                    if (manyThreads && method is PointMethods.Get or PointMethods.Put && Wanted(method, valueBytes, settings.ManyThreads))
                    {
                        using CallingThreads adapterThreads = adapter.CallFrom(settings.ManyThreads);
                        using CallingThreads baselineThreads = baseline.CallFrom(settings.ManyThreads);
                        cells.Add(
                            PairedCell.Of(
                                method,
                                valueBytes,
                                PairedRounds.Measure(
                                    adapterThreads, baselineThreads, method,
                                    settings with { Block = settings.ManyThreadsBlock }),
                                settings.ManyThreads));
                    }
                }

                adapter.Verify();
                baseline.Verify();
            }
        }
        finally
        {
            if (Directory.Exists(root))
            {
                Directory.Delete(root, recursive: true);
            }
        }

        File.WriteAllText(output, JsonSerializer.Serialize(cells));
    }

    /// <summary>Whether <paramref name="row"/> is a raw driver, measured against a second copy of itself.</summary>
    public static bool IsNull(string row) => RowVariants.Parse(row).Kind == RowVariantKind.Raw;

    /// <summary>What <paramref name="row"/> is measured against: its raw driver, or itself when it is one.</summary>
    public static string ReferenceOf(string row) => IsNull(row) ? row : RowVariants.Name(row, RowVariantKind.Raw);
}

/// <summary>A cell of the paired measurement: a method at a value size, called from a number of threads.</summary>
internal sealed record PairedCellKey(string Method, int ValueBytes, int Threads)
{
    /// <summary>Cells as a worker's argument: <c>Get@128x1,Put@128x4</c>.</summary>
    public static string Format(IEnumerable<PairedCellKey> cells) =>
        string.Join(',', cells.Select(cell => string.Create(CultureInfo.InvariantCulture, $"{cell.Method}@{cell.ValueBytes}x{cell.Threads}")));

    /// <summary>The cells <see cref="Format"/> wrote.</summary>
    /// <exception cref="ArgumentException">
    /// <paramref name="cells"/> names no cell, one not as <see cref="Format"/> writes it, or a method not in
    /// <see cref="PointMethods.All"/>.
    /// </exception>
    public static IReadOnlySet<PairedCellKey> Parse(string cells)
    {
        ArgumentNullException.ThrowIfNull(cells);
        var parsed = new HashSet<PairedCellKey>();
        foreach (string cell in cells.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            string[] parts = cell.Split('@', 'x');
            if (parts is not [{ Length: > 0 } method, string size, string threads]
                || !int.TryParse(size, CultureInfo.InvariantCulture, out int valueBytes) || valueBytes <= 0
                || !int.TryParse(threads, CultureInfo.InvariantCulture, out int threadCount) || threadCount <= 0)
            {
                throw new ArgumentException($"'{cell}' is not a cell (METHOD@VALUE-BYTESxTHREADS, as Get@128x1).", nameof(cells));
            }

            if (!PointMethods.All.Contains(method, StringComparer.Ordinal))
            {
                throw new ArgumentException($"'{cell}' names no point method: the methods are {string.Join(", ", PointMethods.All)}.", nameof(cells));
            }

            parsed.Add(new PairedCellKey(method, valueBytes, threadCount));
        }

        return parsed.Count > 0 ? parsed : throw new ArgumentException("No cell named: give at least one, as Get@128x1.", nameof(cells));
    }
}

/// <summary>
/// One cell of one worker: each round's adapter ÷ raw ratio and raw time per operation, for a method at a value size and
/// thread count.
/// </summary>
internal sealed record PairedCell(string Method, int ValueBytes, double[] Ratios, double[] ReferenceNanoseconds, int Threads = 1)
{
    /// <summary>Which cell this is.</summary>
    [JsonIgnore]
    public PairedCellKey Key => new(Method, ValueBytes, Threads);

    public static PairedCell Of(string method, int valueBytes, PairedSamples samples, int threads = 1) =>
        new(method, valueBytes, samples.Ratios, samples.ReferenceNanoseconds, threads);
}
