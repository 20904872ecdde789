using KvBench.Cli;
using KvBench.Stores.Dqlite;
using KvBench.Stores.Etcd;

namespace KvBench.Tests.Cli;

/// <summary><c>crash</c>'s command line: what it refuses before anything starts.</summary>
public sealed class CrashCommandTests
{
    [Theory]
    [InlineData(EtcdRow.RowName)]
    [InlineData(DqliteRow.RowName)]
    public void Killing_the_server_of_a_cluster_row_is_a_usage_error_that_names_the_cluster_fault_command(string row)
    {
        using var directory = new TempDirectory();

        (int exitCode, _, string error) = InProcessCli.Invoke("crash", "--store", row, "--dir", directory.Path, "--kill", "Server");

        Assert.Equal(ExitCodes.Usage, exitCode);
        Assert.Contains($"{row} runs a cluster, whose members `kvbench cluster fault` kills.", error.Split('\n')[0], StringComparison.Ordinal);
    }
}
