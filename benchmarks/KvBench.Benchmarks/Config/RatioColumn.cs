using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

using KvBench.Evaluation.Measuring;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// Each row's median divided by its reference row's median in the same run, printed beside the row: an adapter over its
/// raw-driver baseline (the cost of the abstraction), a naive usage over the tuned adapter (the cost of the usage).
/// </summary>
internal sealed class RatioColumn : IColumn
{
    public string Id => nameof(RatioColumn);

    public string ColumnName => "Ratio";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => false;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend =>
        $"Median ÷ median of the reference row in this run, with its {RatioInterval.Confidence:0%} bootstrap " +
            $"confidence interval: <Row> ÷ <Row>{RowVariants.RawSuffix} (the adapter's cost), <Row>" +
            $"{RowVariants.NaiveSuffix} ÷ <Row> (the naive usage's cost)";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        if (SummaryResults.From(benchmarkCase, summary[benchmarkCase]) is not { } result)
        {
            return "-";
        }

        if (RowVariants.ReferenceOf(result.Row) is null)
        {
            return "baseline";
        }

        RowRatio? ratio = PointRatios.Compute(SummaryResults.From(summary))
            .FirstOrDefault(ratio =>
                ratio.Row == result.Row
                    && ratio.Method == result.Method
                    && ratio.ValueBytes == result.ValueBytes
                    && ratio.Threads == result.Threads);
        return ratio is null ? "-" : ratio.Formatted;
    }

    public bool IsAvailable(Summary summary) => SummaryResults.From(summary).Any(result => RowVariants.Parse(result.Row).Kind != RowVariantKind.Adapter);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
}
