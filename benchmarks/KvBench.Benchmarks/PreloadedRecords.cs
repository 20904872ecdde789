using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks;

/// <summary>
/// How many records a row's benchmarks preload: <see cref="PointOperationCases.DefaultRecordCount"/>, but fewer for a row
/// whose every operation builds a whole engine or whose every record is a file.
/// </summary>
internal static class PreloadedRecords
{
    /// <summary>
    /// The preload of a row whose every operation builds a whole engine (<see cref="StoreRow.BuildsEnginePerOperation"/>:
    /// LiteDB's shared connection, whose naive usage opens a database per operation too) or whose every record is a file
    /// (<see cref="StoreRow.FilePerRecord"/>: FileSystem), and of its raw and naive variants. An engine per operation costs
    /// about 1 ms a read on this two-core machine, and every case reads its whole preload back twice, before measuring and
    /// after: with 5,000 records a LiteDB case took about 15 s, most of it those reads, so the row's 24 cases would take 6
    /// minutes of the default run's 15. A file per record costs about 0.5 ms a record loaded (`kvbench load --store
    /// FileSystem`: 5,000 records in 2.9 s, 1,000 in 1.0 s, half a second of it the process's start), which every case
    /// and every paired process paid four times over: FileSystem's paired process took 9.9 s, the other rows' 2 to 5 s.
    /// Its variants share the size, so adapter ÷ raw and naive ÷ tuned compare like with like; the data stay a few
    /// hundred kilobytes, warm either way.
    /// </summary>
    internal const int SlowToLoad = 1_000;

    /// <summary>The records <paramref name="type"/> (a row or a variant of one) preloads when <paramref name="requested"/> are asked for.</summary>
    public static int For(string type, int requested) =>
        StoreCatalog.Row(RowVariants.Parse(type).Row) is { BuildsEnginePerOperation: true } or { FilePerRecord: true } ? Math.Min(requested, SlowToLoad) : requested;
}
