using KvBench.Evaluation.Measuring;
using KvBench.Stores;

namespace KvBench.Benchmarks;

/// <summary>How many records a row's benchmarks preload: <see cref="PointOperationCases.DefaultRecordCount"/>, but fewer for a row whose every operation builds a whole engine.</summary>
internal static class PreloadedRecords
{
    /// <summary>
    /// The preload of a row whose every operation builds a whole engine (<see cref="StoreRow.BuildsEnginePerOperation"/>:
    /// LiteDB's shared connection, whose naive usage opens a database per operation too) and of its raw and naive
    /// variants. An engine per operation costs about 1 ms a read on this two-core machine, and every case reads its whole
    /// preload back twice, before measuring and after: with 5,000 records a LiteDB case took about 15 s, most of it those
    /// reads, so the row's 24 cases would take 6 minutes of the default run's 15. Its variants share the size, so
    /// adapter ÷ raw and naive ÷ tuned compare like with like; the file stays a few hundred kilobytes, warm either way.
    /// </summary>
    internal const int EnginePerOperation = 1_000;

    /// <summary>The records <paramref name="type"/> (a row or a variant of one) preloads when <paramref name="requested"/> are asked for.</summary>
    public static int For(string type, int requested) =>
        StoreCatalog.Row(RowVariants.Parse(type).Row).BuildsEnginePerOperation ? Math.Min(requested, EnginePerOperation) : requested;
}
