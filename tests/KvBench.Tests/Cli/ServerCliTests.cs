using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Stores.Sqlite;
using KvBench.Tests.Stores.Conformance;


namespace KvBench.Tests.Cli;

/// <summary><c>kvbench</c> on a server row, as a user points it at a server of their own: <c>--endpoint</c>.</summary>
[Trait("Category", "Servers")]
public sealed class ServerCliTests : IClassFixture<ServerHostsFixture>
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(120);

    [Theory]
    [MemberData(nameof(Rows.ServerTiers), MemberType = typeof(Rows))]
    public async Task Put_get_and_scan_reach_the_server_given_with_endpoint(string name, Durability durability)
    {
        string endpoint = Assert.IsType<string>(((ServerRow)StoreCatalog.Row(name)).Servers.Shared(durability)?.Endpoint);
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path, "--durability", durability.ToString(), "--endpoint", endpoint];

        CliRunResult put = await KvBenchCli.Locate().RunAsync(["put", .. store, "user:1", "Ada Lovelace"], s_timeout);
        CliRunResult get = await KvBenchCli.Locate().RunAsync(["get", .. store, "user:1"], s_timeout);
        CliRunResult scan = await KvBenchCli.Locate().RunAsync(["scan", .. store, "user:"], s_timeout);

        Assert.True(put.ExitCode == ExitCodes.Ok, put.Error);
        Assert.Equal("Ada Lovelace", get.Output.Trim());
        Assert.Equal("user:1\tAda Lovelace", scan.Output.Trim());
        Assert.Empty(Directory.EnumerateFileSystemEntries(directory.Path));
    }

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public async Task Without_an_endpoint_the_row_says_in_one_line_where_to_point_it(string name)
    {
        var row = (ServerRow)StoreCatalog.Row(name);
        Assert.True(row.UserEndpoint is null, $"{row.EndpointVariable} is set here, so the CLI has a server.");
        using var directory = new TempDirectory();

        // A command line process runs no server of its own, and the one this test process runs is not the CLI's once the
        // variables through which this process tells its children about it are gone: so a user's shell finds none.
        string[] withoutHostedServers = [.. Enum.GetValues<Durability>().SelectMany(durability => (string[])["-u", row.Servers.HostedVariable(durability)])];
        CliRunResult get = await KvBenchCli.Locate().RunUnderAsync(
            "/usr/bin/env",
            withoutHostedServers,
            ["get", "--store", name, "--dir", directory.Path, "user:1"],
            s_timeout);

        Assert.Equal(ExitCodes.StoreUnavailable, get.ExitCode);
        Assert.Single(get.Error.Trim().Split('\n'));
        Assert.Contains(row.EndpointVariable, get.Error, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Rows.ServerTiers), MemberType = typeof(Rows))]
    public async Task A_process_started_while_this_one_runs_the_server_finds_it_without_an_endpoint(string name, Durability durability)
    {
        var row = (ServerRow)StoreCatalog.Row(name);
        string endpoint = Assert.IsType<string>(row.Servers.Shared(durability)?.Endpoint);
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path, "--durability", durability.ToString()];

        // What a BenchmarkDotNet case's process does: it runs no server, and finds the one its parent runs.
        CliRunResult put = await KvBenchCli.Locate().RunAsync(["put", .. store, "user:1", "Ada Lovelace"], s_timeout);

        Assert.True(put.ExitCode == ExitCodes.Ok, put.Error);
        using IKeyValueStore opened = StoreCatalog.Open(
            name,
            new ServerStoreOptions { Directory = directory.Path, Durability = durability, Endpoint = endpoint });
        Assert.Equal("Ada Lovelace"u8.ToArray(), opened.Get("user:1"u8));
    }

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public async Task A_published_server_whose_process_is_gone_is_not_used(string name)
    {
        var row = (ServerRow)StoreCatalog.Row(name);
        using var directory = new TempDirectory();

        // A variable a process inherited from a host that stopped since: a process id no process has.
        string[] staleHostedServers = [
            .. Enum.GetValues<Durability>().Select(durability =>
                $"{row.Servers.HostedVariable(durability)}={RowServers.HostedValue(int.MaxValue, "127.0.0.1:1")}")];
        CliRunResult get = await KvBenchCli.Locate().RunUnderAsync(
            "/usr/bin/env",
            staleHostedServers,
            ["get", "--store", name, "--dir", directory.Path, "user:1"],
            s_timeout);

        Assert.Equal(ExitCodes.StoreUnavailable, get.ExitCode);
        Assert.Contains(row.EndpointVariable, get.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_endpoint_for_an_embedded_row_is_a_usage_error()
    {
        using var directory = new TempDirectory();

        CliRunResult put = await KvBenchCli.Locate().RunAsync(
            ["put", "--store", SqliteRow.WalName, "--dir", directory.Path, "--endpoint", "127.0.0.1:6379", "k", "v"],
            s_timeout);

        Assert.Equal(ExitCodes.Usage, put.ExitCode);
        Assert.Contains("--endpoint", put.Error, StringComparison.Ordinal);
    }
}
