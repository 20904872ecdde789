using KvBench.Cli;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary><c>kvbench render</c> of a real run's <c>--json</c>: its table, and the run over time per interval.</summary>
public sealed class RenderCommandTests
{
    [Fact]
    public void A_runs_json_renders_as_its_table_and_its_throughput_and_p99_per_interval()
    {
        using var directory = new TempDirectory();
        string json = directory.Combine("run.json");
        (int ran, _, string runError) = Invoke(
            "run", "--store", "Memory", "--dir", directory.Combine("store"), "--load", "--records", "1000", "--mix", "update=1",
            "--threads", "1", "--duration", "1", "--warmup", "0.1", "--interval", "0.25", "--json", json);
        Assert.True(ran == ExitCodes.Ok, runError);

        (int exitCode, string output, string error) = Invoke("render", json);

        Assert.True(exitCode == ExitCodes.Ok, error);
        string markdown = File.ReadAllText(directory.Combine("run.md"));
        Assert.Contains($"Wrote {directory.Combine("run.md")}", output, StringComparison.Ordinal);
        Assert.Contains("Memory | update=1 | 1 | Update |", markdown, StringComparison.Ordinal);
        Assert.Contains("## The run over time", markdown, StringComparison.Ordinal);
        // Four intervals of a quarter second: one point each on the x axis of both charts.
        Assert.Contains("[\"0\", \"0.25\", \"0.5\", \"0.75\"]", markdown, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(directory.Combine("run-charts"), "over-time-memory-update-1-x1-p99.dat")));
    }
}
