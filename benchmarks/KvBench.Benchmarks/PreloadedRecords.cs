using KvBench.Stores;
using KvBench.Stores.Baselines;

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
    /// (<see cref="StoreRow.FilePerRecord"/>: FileSystem), and of its raw and naive variants. An engine per operation
    /// costs an engine's start on every read, and every case reads its whole preload back twice, before measuring and
    /// after: at the full record count, those reads would make that row's cases alone a large part of the default run's
    /// 15 minutes. A file per record costs a file created for every record loaded, which every case and every paired
    /// process pays again: at the full count, the load and not the measurement would make those processes the slowest.
    /// Its variants share the size, so adapter ÷ raw and naive ÷ tuned compare like with like; the data stay a few
    /// hundred kilobytes, warm either way.
    /// </summary>
    internal const int SlowToLoad = 1_000;

    /// <summary>The records <paramref name="type"/> (a row or a variant of one) preloads when <paramref name="requested"/> are asked for.</summary>
    public static int For(string type, int requested) =>
        StoreCatalog.Row(RowVariants.Parse(type).Row) is { BuildsEnginePerOperation: true } or { FilePerRecord: true }
            ? Math.Min(requested, SlowToLoad)
            : requested;
}
