using System.Reflection;

using BenchmarkDotNet.Attributes;

using KvBench.Benchmarks;
using KvBench.Benchmarks.Paired;
using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.Baselines;
using KvBench.Stores.Memory;
using KvBench.Stores.Sqlite;

namespace KvBench.Tests.Benchmarks;

/// <summary>
/// Every benchmark method, for every row and parameter, called once on a tiny dataset exactly as BenchmarkDotNet
/// calls it (global setup with its preload and read-back check, the method, global cleanup), so a broken benchmark
/// fails here instead of an hour into a run.
/// </summary>
public sealed class BenchmarkSmokeTests
{
    private const int TinyRecordCount = 64;

    /// <summary>Each of the tiny records rewritten several times by any thread count; the full count only lengthens a smoke run.</summary>
    private const int TinyThreadedOperations = 4 * TinyRecordCount;

    public static TheoryData<string, int> PointCases
    {
        get
        {
            var data = new TheoryData<string, int>();
            foreach (string type in PointOperations.Types)
            {
                foreach (int valueBytes in ValueSizes(typeof(PointOperations)))
                {
                    data.Add(type, valueBytes);
                }
            }

            return data;
        }
    }

    public static TheoryData<string> PointTypes => new(PointOperations.Types);

    /// <summary>Every row that has a raw driver, which the paired measurement divides it by.</summary>
    public static TheoryData<string> PairedRows =>
        new(PointOperations.Types.Where(type => PointOperations.Types.Contains(RowVariants.Name(type, RowVariantKind.Raw))));

    /// <summary>Every row and thread count that <see cref="ThreadedPointOperations"/> measures.</summary>
    public static TheoryData<string, int> ThreadedCases
    {
        get
        {
            var data = new TheoryData<string, int>();
            foreach (string type in ThreadedPointOperations.Types)
            {
                foreach (int threads in typeof(ThreadedPointOperations).GetProperty(nameof(ThreadedPointOperations.Threads))!
                    .GetCustomAttribute<ParamsAttribute>()!.Values.Cast<int>())
                {
                    if (threads == 1 || PointTargets.ServesManyThreads(type))
                    {
                        data.Add(type, threads);
                    }
                }
            }

            return data;
        }
    }

    public static TheoryData<string> SyncedTypes => new(SyncedPuts.Types);

    [Theory]
    [MemberData(nameof(PointCases))]
    public void Every_point_operation_runs_once_and_reads_hit(string type, int valueBytes)
    {
        var benchmark = new PointOperations { Type = type, ValueBytes = valueBytes, RecordCount = TinyRecordCount };
        RunEveryBenchmarkOnce(benchmark, benchmark.Setup, benchmark.Cleanup);
    }

    [Theory]
    [MemberData(nameof(ThreadedCases))]
    public void Every_threaded_point_operation_runs_once_on_every_thread_and_every_key_holds_its_last_write(string type, int threads)
    {
        var benchmark = new ThreadedPointOperations { Type = type, Threads = threads, RecordCount = TinyRecordCount, Operations = TinyThreadedOperations };
        RunEveryBenchmarkOnce(benchmark, benchmark.Setup, benchmark.Cleanup);
    }

    [Fact]
    public void A_raw_driver_that_serves_one_thread_is_refused_at_two()
    {
        string oneThread = ThreadedPointOperations.Types.First(type => !PointTargets.ServesManyThreads(type));
        var benchmark = new ThreadedPointOperations { Type = oneThread, Threads = 2, RecordCount = TinyRecordCount };
        Assert.Throws<InvalidOperationException>(benchmark.Setup);
        benchmark.Cleanup();
    }

    [Theory]
    [MemberData(nameof(SyncedTypes))]
    public void Every_synced_put_runs_once(string type)
    {
        var benchmark = new SyncedPuts { Type = type, ValueBytes = ValueSizes(typeof(SyncedPuts)).First(), RecordCount = TinyRecordCount };
        RunEveryBenchmarkOnce(benchmark, benchmark.Setup, benchmark.Cleanup);
    }

    [Fact]
    public void A_paired_worker_given_cells_measures_those_alone()
    {
        string output = Path.Combine(Path.GetTempPath(), $"kvbench-paired-test-{Guid.NewGuid():N}.json");
        var settings = new PairedPriceSettings { Rounds = 3, Block = TimeSpan.FromMilliseconds(0.05), Warmup = TimeSpan.FromMilliseconds(1) };
        IReadOnlySet<PairedCellKey> only = PairedCellKey.Parse($"{PointMethods.HaveKey}@128x1,{PointMethods.Put}@128x{settings.ManyThreads}");
        try
        {
            PairedPriceWorker.Run(MemoryRow.RowName, output, settings, TinyRecordCount, only: only);
            List<PairedCell> cells = System.Text.Json.JsonSerializer.Deserialize<List<PairedCell>>(File.ReadAllText(output))!;

            Assert.Equal(only, cells.Select(cell => cell.Key).ToHashSet());
            Assert.Equal(only.Count, cells.Count);
        }
        finally
        {
            File.Delete(output);
        }
    }

    [Fact]
    public void A_paired_worker_given_a_raw_driver_measures_it_against_a_copy_of_itself()
    {
        string output = Path.Combine(Path.GetTempPath(), $"kvbench-paired-test-{Guid.NewGuid():N}.json");
        var settings = new PairedPriceSettings { Rounds = 3, Block = TimeSpan.FromMilliseconds(0.05), Warmup = TimeSpan.FromMilliseconds(1) };
        IReadOnlySet<PairedCellKey> only = PairedCellKey.Parse($"{PointMethods.Put}@128x1,{PointMethods.Get}@128x{settings.ManyThreads}");
        string raw = RowVariants.Name(MemoryRow.RowName, RowVariantKind.Raw);
        try
        {
            PairedPriceWorker.Run(raw, output, settings, TinyRecordCount, only: only);
            List<PairedCell> cells = System.Text.Json.JsonSerializer.Deserialize<List<PairedCell>>(File.ReadAllText(output))!;

            Assert.True(PairedPriceWorker.IsNull(raw));
            Assert.False(PairedPriceWorker.IsNull(MemoryRow.RowName));
            Assert.Equal(only, cells.Select(cell => cell.Key).ToHashSet());
            Assert.All(cells.SelectMany(cell => cell.Ratios), ratio => Assert.True(double.IsFinite(ratio) && ratio > 0, $"ratio {ratio}"));
        }
        finally
        {
            File.Delete(output);
        }
    }

    [Theory]
    [MemberData(nameof(PairedRows))]
    public void A_paired_worker_measures_every_method_and_size_its_row_and_raw_driver_share(string row)
    {
        string output = Path.Combine(Path.GetTempPath(), $"kvbench-paired-test-{Guid.NewGuid():N}.json");
        var settings = new PairedPriceSettings { Rounds = 3, Block = TimeSpan.FromMilliseconds(0.05), Warmup = TimeSpan.FromMilliseconds(1) };
        try
        {
            PairedPriceWorker.Run(row, output, settings, TinyRecordCount);
            List<PairedCell> cells = System.Text.Json.JsonSerializer.Deserialize<List<PairedCell>>(File.ReadAllText(output))!;

            string raw = RowVariants.Name(row, RowVariantKind.Raw);
            var expected = PairedPriceWorker.ValueSizes
                .Where(size => PointTargets.Measures(raw, size) && PointTargets.Measures(row, size))
                .SelectMany(size => PointMethods.All.Where(method => PointOperations.MeasuresAt(method, size)).Select(method => (method, size, Threads: 1)))
                .ToList();
            if (PointTargets.ServesManyThreads(raw))
            {
                expected.Add((PointMethods.Get, settings.ManyThreadsValueBytes, settings.ManyThreads));
                expected.Add((PointMethods.Put, settings.ManyThreadsValueBytes, settings.ManyThreads));
            }

            Assert.Equal(expected.ToHashSet(), cells.Select(cell => (cell.Method, cell.ValueBytes, cell.Threads)).ToHashSet());
            Assert.Equal(expected.Count, cells.Count);
            Assert.All(cells, cell => Assert.Equal(cell.Ratios.Length, cell.ReferenceNanoseconds.Length));
            Assert.All(cells, cell => Assert.All(
                cell.ReferenceNanoseconds,
                nanoseconds => Assert.True(nanoseconds > 0, $"{cell.Method} {cell.ValueBytes} B: the raw driver's time per call was {nanoseconds} ns.")));
            Assert.All(cells, cell => Assert.Equal(settings.Rounds, cell.Ratios.Length));
            Assert.All(cells.SelectMany(cell => cell.Ratios), ratio => Assert.True(double.IsFinite(ratio) && ratio > 0, $"ratio {ratio}"));
        }
        finally
        {
            File.Delete(output);
        }
    }

    [Fact]
    public void Point_operation_methods_carry_the_names_the_ratio_tables_look_for()
    {
        Assert.Equal(PointMethods.All.Order(), BenchmarkMethods(typeof(PointOperations)).Select(method => method.Name).Order());
    }

    [Fact]
    public void Every_available_row_is_measured_and_every_variant_names_an_available_row()
    {
        IReadOnlyList<string> names = PointTargets.Names;

        Assert.All(StoreCatalog.AvailableNames, row => Assert.Contains(row, names));
        Assert.All(names, name => Assert.Contains(RowVariants.Parse(name).Row, StoreCatalog.AvailableNames));
        Assert.Contains(RowVariants.Name(SqliteRow.WalName, RowVariantKind.Naive), names);
        Assert.Equal(names.Distinct().Count(), names.Count);
    }

    [Fact]
    public void Every_baseline_a_row_creates_is_measured_beside_that_row()
    {
        List<string> names = [.. PointTargets.Names];
        Assert.All(
            StoreCatalog.Rows.Where(row => row.IsAvailable),
            row => Assert.All(row.Baselines, baseline =>
            {
                string name = RowVariants.Name(row.Name, baseline.Kind);
                Assert.Equal(names.IndexOf(row.Name) + 1 + row.Baselines.ToList().IndexOf(baseline), names.IndexOf(name));
                Assert.Equal((row.Name, baseline.Kind), RowVariants.Parse(name));
            }));
        Assert.All(
            StoreCatalog.Rows.Concat(StoreCatalog.ServerRows),
            row => Assert.Equal(row.Baselines.Count, row.Baselines.Select(baseline => baseline.Kind).Distinct().Count()));
    }

    [Theory]
    [MemberData(nameof(PointTypes))]
    public void Every_row_reopens_a_directory_it_loaded_before(string type)
    {
        // A run's cases share each row's loaded directory, so every target must open one it left behind.
        using var directory = new TempDirectory();
        var records = new RecordSet(valueBytes: 16);
        using (IPointTarget target = PointTargets.Open(type, directory.Path))
        {
            target.Load(records.Records(0, TinyRecordCount));
        }

        using IPointTarget reopened = PointTargets.Open(type, directory.Path);
        reopened.Put(records.Key(0), records.Value(0));
        Assert.Equal(records.Value(0), reopened.Get(records.Key(0)));
    }

    [Fact]
    public void A_load_that_reads_back_wrong_bytes_aborts_the_setup()
    {
        var records = new VersionedRecords(new RecordSet(valueBytes: 16), TinyRecordCount);
        using Dataset dataset = Dataset.For(MemoryRow.RowName, 16, TinyRecordCount);

        // Every key gets record 1's value: the read-back finds record 0 (always in the sample) wrong.
        Assert.Throws<InvalidDataException>(() => dataset.Open(
            MemoryRow.RowName,
            open: path => PointTargets.Open(MemoryRow.RowName, path),
            load: target => Enumerable.Range(0, TinyRecordCount).ToList().ForEach(i => target.Put(records.Key(i), records.Value(1))),
            verify: target => records.Adopt(key => target.Get(key))));
    }

    [Fact]
    public void A_case_whose_last_write_the_store_does_not_hold_fails_its_cleanup_and_still_closes_the_store()
    {
        var records = new VersionedRecords(new RecordSet(valueBytes: 16), TinyRecordCount);
        Dataset dataset = Dataset.For(MemoryRow.RowName, 16, TinyRecordCount);
        IPointTarget target = PointTargets.Open(MemoryRow.RowName, dataset.Path);
        target.Load(records.Records.Records(0, TinyRecordCount));

        // The benchmark moved record 5 to its next version, but the write never reached the store.
        records.Rewrite(5);

        InvalidDataException lost = Assert.Throws<InvalidDataException>(
            () => Dataset.CloseChecked(dataset, MemoryRow.RowName, records, target, key => target.Get(key)));
        Assert.Contains("first bad index 5", lost.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(dataset.Path));
    }

    private static void RunEveryBenchmarkOnce(object benchmark, Action setup, Action cleanup)
    {
        setup();
        try
        {
            foreach (MethodInfo method in BenchmarkMethods(benchmark.GetType()))
            {
                object? result = method.Invoke(benchmark, null);
                if (method.ReturnType == typeof(bool))
                {
                    Assert.True((bool)result!, $"{method.Name} missed a preloaded key.");
                }
                else if (method.ReturnType == typeof(byte[]))
                {
                    Assert.NotNull(result);
                }
            }
        }
        finally
        {
            cleanup();
        }
    }

    private static IEnumerable<MethodInfo> BenchmarkMethods(Type type) =>
        type.GetMethods().Where(method => method.GetCustomAttribute<BenchmarkAttribute>() is not null);

    private static IEnumerable<int> ValueSizes(Type type) =>
        type.GetProperty("ValueBytes")!.GetCustomAttribute<ParamsAttribute>()!.Values.Cast<int>();
}
