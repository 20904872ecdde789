using KvBench.Cli;
using KvBench.Stores.Dqlite;
using KvBench.Stores.Etcd;
using KvBench.Stores.Memory;
using KvBench.Stores.Redis;

namespace KvBench.Tests.Cli;

/// <summary><c>crash</c>'s command line: what it refuses before anything starts.</summary>
public sealed class CrashCommandTests
{
    [Theory]
    [InlineData(EtcdRow.RowName, "Server")]
    [InlineData(DqliteRow.RowName, "Server")]
    [InlineData(EtcdRow.RowName, "Power")]
    [InlineData(DqliteRow.RowName, "Power")]
    public void Killing_the_server_of_a_cluster_row_is_a_usage_error_that_names_the_cluster_fault_command(string row, string kill)
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = InProcessCli.Invoke("crash", "--store", row, "--dir", directory.Path, "--kill", kill);

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains($"{row} runs a cluster, whose members `kvbench cluster fault` kills.", error.Split('\n')[0], StringComparison.Ordinal);
    }

    [Fact]
    public void Cutting_the_power_under_Garnet_is_a_usage_error_that_says_why()
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = InProcessCli.Invoke("crash", "--store", GarnetRow.RowName, "--dir", directory.Path, "--kill", "Power");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains("--kill Power leaves Garnet out: on a FUSE file system", error.Split('\n')[0], StringComparison.Ordinal);
    }

    [Fact]
    public void Cutting_the_power_under_a_row_with_neither_files_nor_a_server_is_a_usage_error()
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = InProcessCli.Invoke("crash", "--store", MemoryRow.RowName, "--dir", directory.Path, "--kill", "Power");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains($"{MemoryRow.RowName} is neither.", error.Split('\n')[0], StringComparison.Ordinal);
    }
}
