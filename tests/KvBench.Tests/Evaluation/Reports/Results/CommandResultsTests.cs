using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Results;
using KvBench.Evaluation.Reports.Sections.Workloads;
using KvBench.Evaluation.Workload;
using KvBench.Tests.Evaluation.Reports.Charts;

namespace KvBench.Tests.Evaluation.Reports.Results;

/// <summary>
/// The results file of a workload command, written and read back: it is of its kind, and its markdown holds the very
/// tables the command printed of the same measurements.
/// </summary>
public sealed class CommandResultsTests
{
    private static readonly MachineInfo s_machine = new("Test CPU", 2, 8L << 30, "Debian GNU/Linux 12", ".NET 10", "ext4");

    [Theory]
    [InlineData(CommandResults.WorkloadsKind)]
    [InlineData(CommandResults.ThreadSweepKind)]
    [InlineData(CommandResults.ScaleSweepKind)]
    public async Task A_workload_commands_file_renders_the_tables_the_command_printed(string kind)
    {
        WorkloadSection measured = ChartReports.Create(3).Sections.OfType<WorkloadSection>().Single();
        (CommandResults results, string printed) = kind switch
        {
            CommandResults.WorkloadsKind => (
                (CommandResults)new CommandResults<IReadOnlyList<WorkloadResult>>(kind, "kvbench ycsb", s_machine, measured.Ycsb!),
                WorkloadSection.YcsbAlone(measured.Ycsb!).Markdown),
            CommandResults.ThreadSweepKind => (
                new CommandResults<IReadOnlyList<WorkloadResult>>(kind, "kvbench sweep threads", s_machine, measured.ThreadSweep!),
                WorkloadSection.ThreadSweepAlone(measured.ThreadSweep!).Markdown),
            _ => (
                new CommandResults<IReadOnlyList<ScalePoint>>(kind, "kvbench sweep scale", s_machine, measured.Scale!),
                WorkloadSection.ScaleSweepAlone(measured.Scale!).Markdown),
        };
        using var directory = new TempDirectory();
        string file = directory.Combine("run.json");
        await results.WriteAsync(file);

        ResultsFile read = ResultsFile.Read(file);
        string markdown = directory.Combine("run.md");
        await read.RenderAsync(markdown, file, gnuplot: directory.Combine("no-gnuplot"));

        Assert.Equal(results.GetType(), read.GetType());
        Assert.Equal(kind, read.Kind);
        Assert.Equal(s_machine, read.Machine);
        Assert.Equal(printed, ((CommandResults)read).Tables());
        Assert.Contains(printed, File.ReadAllText(markdown), StringComparison.Ordinal);
    }
}
