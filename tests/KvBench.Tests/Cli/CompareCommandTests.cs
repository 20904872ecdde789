using KvBench.Cli;

using static KvBench.Tests.Cli.InProcessCli;

namespace KvBench.Tests.Cli;

/// <summary>
/// <c>kvbench compare</c> on real runs: a setting that costs time (LMDB's updates at Synced against Buffered) reads as
/// slower, with the regression's exit code, and a file that is no results file is one line and the usage code.
/// </summary>
public sealed class CompareCommandTests
{
    [Fact]
    public void Synced_updates_compared_with_Buffered_ones_are_slower_and_the_exit_code_says_regressed()
    {
        using var directory = new TempDirectory();
        string buffered = Run(directory, "Buffered");
        string synced = Run(directory, "Synced");
        string report = directory.Combine("compare.md");

        (int exitCode, string output, string error) = Invoke("compare", buffered, synced, "--output", report);

        Assert.True(exitCode == ExitCodes.Regressed, $"{exitCode}: {error}{output}");
        Assert.Contains("LMDB / update=1 / 2,000 records / 2 threads | throughput |", output, StringComparison.Ordinal);
        Assert.Matches(@"\| throughput \|[^\n]*\| slower \|", output);
        Assert.Equal(output, File.ReadAllText(report));
    }

    [Fact]
    public void A_file_that_is_no_results_file_is_one_line_and_the_usage_code()
    {
        using var directory = new TempDirectory();
        string notResults = directory.Combine("profile.json");
        File.WriteAllText(notResults, """{ "title": "not a run" }""");

        (int exitCode, _, string error) = Invoke("compare", notResults, notResults);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Single(error.Trim().Split('\n'));
        Assert.Contains("holds no workload run", error, StringComparison.Ordinal);
    }

    /// <summary>
    /// Two seconds of updates on LMDB at <paramref name="durability"/> in ten intervals, so each run has a spread to judge
    /// by, written with --json; returns the file.
    /// </summary>
    private static string Run(TempDirectory directory, string durability)
    {
        string json = directory.Combine($"{durability}.json");
        (int exitCode, _, string error) = Invoke(
            "run", "--store", "LMDB", "--dir", directory.Combine(durability), "--load", "--records", "2000", "--mix", "update=1",
            "--threads", "2", "--duration", "2", "--warmup", "0.2", "--interval", "0.2", "--durability", durability, "--json", json);
        Assert.True(exitCode == ExitCodes.Ok, error);
        return json;
    }
}
