using System.Text;

using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections.PointOperations;


namespace KvBench.Tests.Evaluation.Reports;

public sealed class BenchmarkReportTests
{
    private static readonly string[] s_report =
    [
        "```",
        "BenchmarkDotNet v0.14.0",
        "```",
        "| Method | Type       | ValueBytes | Mean       | Error    | StdDev   | Gen0   | Allocated | Op/s      |",
        "|------- |----------- |----------- |-----------:|---------:|---------:|-------:|----------:|----------:|",
        "| **Put**    | **LMDB** | **128** | **8,170.51 ns** | **155.670 ns** | **102.966 ns** | **-** | **-** | **122,391.4** |",
        "| GetArray | LMDB | 128 | 281.26 ns | 32.242 ns | 21.326 ns | 0.0074 | 152 B | 3,555,381.4 |",
    ];

    [Fact]
    public void Select_prints_the_decision_record_columns_in_order_with_zero_columns_BenchmarkDotNet_dropped()
    {
        BenchmarkReport report = BenchmarkReport.Parse("report-github.md", s_report, DateTime.UnixEpoch);
        var output = new StringBuilder();

        report.Select(BenchmarkSection.OperationColumns).WriteTo(output);

        string[] lines = output.ToString().Split(Environment.NewLine);
        Assert.Equal("Method | Type | ValueBytes | Mean | Error | StdDev | Gen0 | Gen1 | Gen2 | Allocated | Op/s |", lines[0]);
        Assert.Equal("Put | LMDB | 128 | 8,170.51 ns | 155.670 ns | 102.966 ns | - | - | - | - | 122,391.4 |", lines[2]);
        Assert.Equal("GetArray | LMDB | 128 | 281.26 ns | 32.242 ns | 21.326 ns | 0.0074 | - | - | 152 B | 3,555,381.4 |", lines[3]);
    }

    [Fact]
    public void A_file_without_a_table_is_refused_by_name() =>
        Assert.Contains(
            "notes.md",
            Assert.Throws<InvalidDataException>(() => BenchmarkReport.Parse("notes.md", ["no table here"], DateTime.UnixEpoch)).Message,
            StringComparison.Ordinal);
}
