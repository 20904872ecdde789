using System.Collections.Immutable;

using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace KvBench.Benchmarks;

/// <summary>
/// BenchmarkDotNet's default order, except that every case marked <see cref="WritesDatasetAttribute"/> runs after every
/// case that only reads. Cases of a row and value size share one preloaded dataset (<see cref="Dataset"/>), and a Put
/// case leaves it changed by as many rewrites as its pilot chose, which depends on how fast the row writes: in the
/// default order (Put first) the adapter's and the raw driver's Gets then read datasets rewritten a different number of
/// times. With reads first, every read case of an adapter and of its raw driver reads a dataset as it was loaded.
/// </summary>
internal sealed class ReadsBeforeWritesOrderer : IOrderer
{
    public static ReadsBeforeWritesOrderer Instance { get; } = new();

    private static IOrderer Default => DefaultOrderer.Instance;

    public bool SeparateLogicalGroups => Default.SeparateLogicalGroups;

    public IEnumerable<BenchmarkCase> GetExecutionOrder(ImmutableArray<BenchmarkCase> benchmarksCase, IEnumerable<BenchmarkLogicalGroupRule>? order = null) =>
        Default.GetExecutionOrder(benchmarksCase, order).OrderBy(WritesDatasetAttribute.IsOn);

    public IEnumerable<BenchmarkCase> GetSummaryOrder(ImmutableArray<BenchmarkCase> benchmarksCases, Summary summary) =>
        Default.GetSummaryOrder(benchmarksCases, summary);

    public string? GetHighlightGroupKey(BenchmarkCase benchmarkCase) => Default.GetHighlightGroupKey(benchmarkCase);

    public string? GetLogicalGroupKey(ImmutableArray<BenchmarkCase> allBenchmarksCases, BenchmarkCase benchmarkCase) =>
        Default.GetLogicalGroupKey(allBenchmarksCases, benchmarkCase);

    public IEnumerable<IGrouping<string, BenchmarkCase>> GetLogicalGroupOrder(
        IEnumerable<IGrouping<string,
        BenchmarkCase>> logicalGroups,
        IEnumerable<BenchmarkLogicalGroupRule>? order = null) =>
        Default.GetLogicalGroupOrder(logicalGroups, order);
}
