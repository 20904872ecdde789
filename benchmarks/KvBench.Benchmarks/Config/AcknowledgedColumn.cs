using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Measuring;
using KvBench.Stores;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// What each row's acknowledged write had reached: the benchmark's tier (<see cref="MeasuredAtAttribute"/>) for rows
/// that reach it at every write, and "memory until Flush" or "memory only" for rows that do not, so one table never sets
/// FASTER's in-memory Put beside Buffered ones without saying so. Raw and naive rows share their row's store and tier.
/// </summary>
internal sealed class AcknowledgedColumn : IColumn
{
    public string Id => nameof(AcknowledgedColumn);

    public string ColumnName => AcknowledgedTier.ColumnName;

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Params;

    public int PriorityInCategory => 100;

    public bool IsNumeric => false;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend =>
        $"What an acknowledged write had reached: the benchmark's tier (Buffered: survives a killed process; Synced: " +
            $"also a power cut), \"{AcknowledgedTier.MemoryUntilFlush}\" for a store that holds writes in its own " +
            $"memory until a checkpoint, \"{AcknowledgedTier.MemoryOnly}\" for the floor, and for a server whose " +
            $"setting for the tier keeps less, what it keeps (\"server memory up to ...\")";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        if (benchmarkCase.Parameters["Type"] is not string type)
        {
            return "-";
        }

        string row = RowVariants.Parse(type).Row;
        return StoreCatalog.AllNames.Contains(row)
            ? AcknowledgedTier.Label(row, PointTargets.TierOf(type, MeasuredAtAttribute.Of(benchmarkCase.Descriptor.Type)))
            : "-";
    }

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
}
