using BenchmarkDotNet.Attributes;

using KvBench.Benchmarks.Targets;
using KvBench.Core;
using KvBench.Stores.Memory;

namespace KvBench.Benchmarks;

/// <summary>
/// The embedded rows' point operations (see <see cref="PointOperationCases"/>): each catalog row at Buffered durability,
/// its raw-driver baseline (<c>_raw</c>) and its naive usages (<c>_naive</c>).
/// </summary>
[BenchmarkCategory(Categories.PointOperations)]
[MeasuredAt(Durability.Buffered)]
public class PointOperations : PointOperationCases
{
    [ParamsSource(nameof(Types))]
    public override string Type { get; set; } = MemoryRow.RowName;

    /// <summary>Every embedded row that can be opened here (see <see cref="PointTargets"/>).</summary>
    public static IEnumerable<string> Types => PointTargets.Names;
}
