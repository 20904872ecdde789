using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Tests.Servers;

/// <summary>No parallel class holds a server while these tests run, so the last stop they see is the real one.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ServerLifecycleCollection
{
    public const string Name = "Server lifecycle";
}

/// <summary>KvBench's servers are real processes that are gone, with everything they forked and their data, once stopped.</summary>
[Trait("Category", "Servers")]
[Collection(ServerLifecycleCollection.Name)]
public sealed class ServerLifecycleTests
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
                foreach (Durability durability in Enum.GetValues<Durability>())
                {
                    // A store open on it first, so a server that forks per connection (PostgreSQL) has forked.
                    using var directory = new TempDirectory();
                    using (IKeyValueStore store = StoreCatalog.Open(row.Name, new StoreOptions { Directory = directory.Path, Durability = durability }))
                    {
                        store.Put(TestData.Key(1), [1]);
                    }

                    int pid = Assert.NotNull(row.ServerProcessId(durability));
                    string data = Assert.IsType<string>(row.ServerDataDirectory(durability));
                    Assert.True(Directory.Exists(data));
                    servers.Add(($"{row.Name} {durability}", [pid, .. ProcessTree.Descendants(pid)], data));
                }
            }
        }

        Assert.All(servers, server =>
        {
            Assert.All(server.Pids, pid => Assert.False(ProcessTree.Exists(pid), $"{server.Server}'s process {pid} (of {string.Join(", ", server.Pids)}) still runs."));
            Assert.False(Directory.Exists(server.DataDirectory), $"{server.Server}'s data directory is still there.");
        });
        Assert.All(rows, row => Assert.Null(row.ServerProcessId(Durability.Buffered)));
    }
}
