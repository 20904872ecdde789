using System.Text;

using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PointOperations;


namespace KvBench.Tests.Evaluation.Reports.Sections.PointOperations;

public sealed class PublishedPointOperationsTests
{
    private static readonly string[] s_report =
    [
        "| Method | Type       | ValueBytes | Mean       | Error    | StdDev   | Gen0   | Allocated | Op/s      |",
        "|------- |----------- |----------- |-----------:|---------:|---------:|-------:|----------:|----------:|",
        "| **Put** | **LiteDB** | **1028** | **2,000,000.00 ns** | **1.0 ns** | **1.0 ns** | **-** | **9,999 B** | **500.0** |",
        "| Put | LiteDB | 128 | 96,676.06 ns | 1.0 ns | 1.0 ns | 0.1 | 4,321 B | 10,343.9 |",
        "| Put | LiteDB_raw | 128 | 90,000.00 ns | 1.0 ns | 1.0 ns | 0.1 | 4,000 B | 11,111.1 |",
    ];

    [Fact]
    public void Each_published_cell_stands_beside_the_same_row_method_and_value_size_measured_here()
    {
        BenchmarkReport report = BenchmarkReport.Parse("report-github.md", s_report, DateTime.UnixEpoch);
        var output = new StringBuilder();

        PublishedPointOperations.Table(report).WriteTo(output);

        string markdown = output.ToString();
        Assert.Contains("LiteDB | Put | 1,933,521.3 ns | 163,360 B | 96,676.06 ns | 4,321 B | 0.05 |", markdown);
        Assert.Contains("LiteDB | Get | 309,517.3 ns | 148,657 B | not measured here | - | - |", markdown);
        Assert.Contains("LMDB | Put | 525,621.3 ns | 593 B | not measured here | - | - | published as a synced commit", markdown);
        Assert.Equal(16, markdown.Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries).Length - 1); // header rule + 15 published cells
    }
}
