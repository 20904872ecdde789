using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;
using KvBench.Tests.Stores.Conformance;


namespace KvBench.Tests.Stores.Servers;

/// <summary>What only a server row has: an endpoint, a durability setting that may be the server's, a store per directory on one server.</summary>
[Trait("Category", "Servers")]
public sealed class ServerRowTests : IClassFixture<ServerHostsFixture>
{
    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void A_server_is_used_only_at_the_durability_it_is_set_to(string name)
    {
        var row = (ServerRow)StoreCatalog.Row(name);
        using var directory = new TempDirectory();
        foreach (DurabilityTiers serverTiers in row.ServerTiers)
        {
            // Given as an explicit endpoint, KvBench's own server is what a user's own would be: its setting is read back.
            string endpoint = Assert.IsType<string>(
                row.Servers.Shared(serverTiers.HasFlag(DurabilityTiers.Buffered) ? Durability.Buffered : Durability.Synced)?.Endpoint);
            foreach (Durability durability in Enum.GetValues<Durability>())
            {
                var options = new ServerStoreOptions { Directory = directory.Path, Durability = durability, Endpoint = endpoint };
                if (serverTiers.Offers(durability))
                {
                    using IKeyValueStore store = StoreCatalog.Open(name, options);
                    store.Put(TestData.Key(1), [(byte)durability]);
                    Assert.Equal([(byte)durability], Assert.IsType<byte[]>(store.Get(TestData.Key(1))));
                }
                else
                {
                    DurabilityNotOfferedException refused = Assert.Throws<DurabilityNotOfferedException>(() => StoreCatalog.Open(name, options));
                    Assert.Equal(durability, refused.Requested);
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void Each_directory_is_a_store_of_its_own_on_one_server_and_nothing_is_written_into_it(string name)
    {
        using var first = new TempDirectory();
        using var second = new TempDirectory();
        using IKeyValueStore one = StoreCatalog.Open(name, new StoreOptions { Directory = first.Path });
        using IKeyValueStore other = StoreCatalog.Open(name, new StoreOptions { Directory = second.Combine("not-yet-made") });

        one.Put(TestData.Key(1), [1]);
        other.Put(TestData.Key(1), [2]);
        other.Put(TestData.Key(2), [2]);

        Assert.Equal([1], one.Get(TestData.Key(1)));
        Assert.Equal([2], other.Get(TestData.Key(1)));
        Assert.Single(one.ScanPrefix(ReadOnlyMemory<byte>.Empty));
        Assert.Empty(Directory.EnumerateFileSystemEntries(first.Path));
        Assert.False(Directory.Exists(second.Combine("not-yet-made")));
    }

    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void An_endpoint_where_no_server_listens_fails_the_open_with_a_store_error(string name)
    {
        using var directory = new TempDirectory();

        // Port 1 on loopback: privileged, and nothing of KvBench's listens there.
        KeyValueStoreException error = Assert.ThrowsAny<KeyValueStoreException>(() =>
            StoreCatalog.Open(name, new ServerStoreOptions { Directory = directory.Path, Endpoint = "127.0.0.1:1" }).Dispose());

        Assert.Contains(name, error.Message, StringComparison.Ordinal);
    }
}
