using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Stores;
using KvBench.Stores.Servers;



namespace KvBench.Tests.Stores.Servers;

/// <summary>No parallel class holds a server while these tests run, so the last stop they see is the real one.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ServerLifecycleCollection
{
    public const string Name = "Server lifecycle";
}

/// <summary>
/// KvBench's servers are real processes that are gone, with everything they forked and their data, once stopped: those
/// a suite starts, and those <c>kvbench servers up</c> runs for every kvbench process of the machine.
/// </summary>
[Trait("Category", "Servers")]
[Collection(ServerLifecycleCollection.Name)]
public sealed class ServerLifecycleTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Every_server_runs_while_its_suite_does_and_leaves_no_process_and_no_data_once_stopped()
    {
        ServerRow[] rows = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null)];
        Assert.NotEmpty(rows);
        List<(string Server, int[] Pids, string DataDirectory)> servers = [];
        await using (RowHostGroup hosts = await StoreCatalog.StartHostsAsync(rows.Select(row => row.Name)))
        {
            foreach (ServerRow row in rows)
            {
                foreach (Durability durability in Enum.GetValues<Durability>().Where(durability => row.Declared.Durability.Offers(durability)))
                {
                    // A store open on it first, so a server that forks per connection (PostgreSQL) has forked.
                    using var directory = new TempDirectory();
                    using (IKeyValueStore store = StoreCatalog.Open(row.Name, new StoreOptions { Directory = directory.Path, Durability = durability }))
                    {
                        store.Put(TestData.Key(1), [1]);
                    }

                    // Every process of the server: a cluster's members, and what each forked.
                    IReadOnlyList<int> pids = row.Servers.Shared(durability)?.ProcessIds ?? [];
                    Assert.NotEmpty(pids);
                    string data = Assert.IsType<string>(row.Servers.Shared(durability)?.DataDirectory);
                    Assert.True(Directory.Exists(data));
                    servers.Add(($"{row.Name} {durability}", [.. pids.SelectMany(pid => (int[])[pid, .. ProcessTree.Descendants(pid)])], data));
                }
            }
        }

        Assert.All(servers, server =>
        {
            Assert.All(server.Pids, pid =>
                Assert.False(
                    ProcessTree.Exists(pid),
                    $"{server.Server}'s process {pid} (of {string.Join(", ", server.Pids)}) still runs."));
            Assert.False(Directory.Exists(server.DataDirectory), $"{server.Server}'s data directory is still there.");
        });
        Assert.All(rows, row => Assert.Empty(Enum.GetValues<Durability>().SelectMany(durability => row.Servers.Shared(durability)?.ProcessIds ?? [])));
    }

    [Fact]
    public async Task Servers_up_serves_every_kvbench_process_without_an_endpoint_until_servers_down_stops_them()
    {
        TimeSpan timeout = TimeSpan.FromSeconds(180);
        string[] names = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null).Select(row => row.Name)];
        Assert.NotEmpty(names);
        using var directory = new TempDirectory();
        List<string[]> servers = [];
        await using (CliProcess up = KvBenchCli.Locate().Start(["servers", "up", "--stores", .. names]))
        {
            servers.AddRange(await ServersListedAsync(up, timeout));
            Assert.Equal(
                [
                    .. names.SelectMany(name =>
                        Enum
                            .GetValues<Durability>()
                            .Where(durability => StoreCatalog.DeclaredCapabilities(name).Durability.Offers(durability))
                            .Select(durability => $"{name} {durability}"))],
                servers.Select(server => $"{server[0]} {server[1]}"));
            CliRunResult status = await KvBenchCli.Locate().RunAsync(["servers", "status"], timeout);
            Assert.Equal(servers.Select(server => string.Join('\t', server)), status.Output.Trim().Split('\n'));

            foreach (string name in names)
            {
                Durability strongest = Enum.GetValues<Durability>().Last(durability => StoreCatalog.DeclaredCapabilities(name).Durability.Offers(durability));
                string[] store = ["--store", name, "--dir", directory.Combine(name), "--durability", strongest.ToString()];
                CliRunResult put = await KvBenchCli.Locate().RunAsync(["put", .. store, "user:1", "Ada"], timeout);
                CliRunResult get = await KvBenchCli.Locate().RunAsync(["get", .. store, "user:1"], timeout);
                Assert.True(put.ExitCode == ExitCodes.Ok, put.Error);
                Assert.Equal("Ada", get.Output.Trim());
            }

            CliRunResult down = await KvBenchCli.Locate().RunAsync(["servers", "down"], timeout);
            Assert.Equal("kvbench: servers stopped.", down.Output.Trim());
            Assert.Equal(ExitCodes.Ok, await up.WaitForExitAsync(timeout));
        }

        Assert.Null(PublishedServers.Read());
        Assert.All(servers, server =>
            Assert.False(
                ProcessTree.Exists(int.Parse(server[3], System.Globalization.CultureInfo.InvariantCulture)),
                $"{server[0]} {server[1]} still runs."));
        Assert.Equal("kvbench: no servers are up.", (await KvBenchCli.Locate().RunAsync(["servers", "status"], timeout)).Output.Trim());
    }

    [Fact]
    public async Task Two_processes_share_each_server_row_on_the_servers_that_servers_up_runs()
    {
        TimeSpan timeout = TimeSpan.FromSeconds(180);
        string[] names = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null).Select(row => row.Name)];
        using var directory = new TempDirectory();
        await using CliProcess up = KvBenchCli.Locate().Start(["servers", "up", "--stores", .. names]);
        _ = await ServersListedAsync(up, timeout);
        try
        {
            foreach (string name in names)
            {
                // Both workers, and this process's checks, find the servers through the file servers up publishes.
                MultiProcessMeasurement measured = await new MultiProcessProbe(KvBenchCli.Locate()).MeasureAsync(name, directory.Combine(name));

                output.WriteLine(measured.ToString());
                Assert.True(measured.MatchesDeclared, measured.ToString());
                Assert.Equal(MultiProcessLevel.Shared, measured.Measured);
                Assert.All(measured.Verified.Values, verified => Assert.True(verified.Ok, measured.ToString()));
            }
        }
        finally
        {
            await KvBenchCli.Locate().RunAsync(["servers", "down"], timeout);
        }

        Assert.Equal(ExitCodes.Ok, await up.WaitForExitAsync(timeout));
    }

    [Fact]
    public async Task Every_server_dies_with_a_servers_up_killed_with_SIGKILL()
    {
        if (!ChildProcesses.DieWithParent)
        {
            return;
        }

        TimeSpan timeout = TimeSpan.FromSeconds(180);
        string[] names = [.. StoreCatalog.ServerRows.Where(row => row.IsAvailable && row.UserEndpoint is null).Select(row => row.Name)];
        string[] dataBefore = Directory.Exists(ServerDirectories.Root) ? Directory.GetFileSystemEntries(ServerDirectories.Root) : [];
        List<int> servers = [];
        await using (CliProcess up = KvBenchCli.Locate().Start(["servers", "up", "--stores", .. names]))
        {
            foreach (string[] server in await ServersListedAsync(up, timeout))
            {
                int pid = int.Parse(server[3], System.Globalization.CultureInfo.InvariantCulture);
                servers.AddRange([pid, .. ProcessTree.Descendants(pid)]);
            }

            Assert.NotEmpty(servers);
            Assert.True(Signals.Send(up.ProcessId, Signals.ForceKill));
            int[] left = await ChildProcessesTests.RunningAfterAsync(servers, ChildProcessesTests.GoneTimeout);
            Assert.True(left.Length == 0, $"The server processes {string.Join(", ", left)} still run after servers up was killed.");
        }

        // Nothing stopped the servers, so nothing deleted what they left: this collection runs alone, so it is theirs.
        foreach (string left in Directory.GetFileSystemEntries(ServerDirectories.Root).Except(dataBefore))
        {
            if (Directory.Exists(left))
            {
                Directory.Delete(left, recursive: true);
            }
            else
            {
                File.Delete(left);
            }
        }
    }

    /// <summary>The server lines <c>servers up</c> prints (row, durability, endpoint, pid) before it says they are up.</summary>
    private static async Task<List<string[]>> ServersListedAsync(CliProcess up, TimeSpan timeout)
    {
        List<string[]> servers = [];
        using var deadline = new CancellationTokenSource(timeout);
        await foreach (string line in up.OutputLines.ReadAllAsync(deadline.Token))
        {
            if (line.StartsWith("kvbench: servers up", StringComparison.Ordinal))
            {
                return servers;
            }

            servers.Add(line.Split('\t'));
        }

        throw new InvalidOperationException($"`kvbench servers up` ended before its servers were up: {up.StandardError}");
    }
}
