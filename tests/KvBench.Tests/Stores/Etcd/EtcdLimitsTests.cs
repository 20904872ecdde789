using dotnet_etcd;

using Etcdserverpb;

using Google.Protobuf;

using Grpc.Core;

using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Etcd;
using KvBench.Stores.Servers;



namespace KvBench.Tests.Stores.Etcd;

/// <summary>The etcd row's cluster alone, started once for the class and stopped after it.</summary>
public sealed class EtcdHostFixture() : RowHostsFixture([EtcdRow.RowName]);

/// <summary>
/// Where the etcd row's declared limits come from: etcd's own, probed on a real cluster. One request carries key and
/// value, up to <c>--max-request-bytes</c>; the database stops taking writes at its quota.
/// </summary>
[Trait("Category", "Servers")]
public sealed class EtcdLimitsTests(ITestOutputHelper output) : IClassFixture<EtcdHostFixture>
{
    [Fact]
    public void The_largest_key_with_the_largest_value_fits_one_request_and_etcd_refuses_one_past_its_request_limit()
    {
        var row = (ServerRow)StoreCatalog.Row(EtcdRow.RowName);
        string endpoint = Assert.IsType<string>(row.Servers.Shared(Durability.Synced)?.Endpoint);
        StoreCapabilities declared = row.Declared;
        using var directory = new TempDirectory();
        byte[] key = [.. Enumerable.Repeat((byte)'k', declared.MaxKeyBytes)];
        byte[] value = [.. Enumerable.Repeat((byte)'v', declared.MaxValueBytes)];
        using (IKeyValueStore store = StoreCatalog.Open(EtcdRow.RowName, new StoreOptions { Directory = directory.Path }))
        {
            store.Put(key, value);
            Assert.Equal(value, store.Get(key));
            Assert.Throws<ValueTooLargeException>(() => store.Put([1], new byte[declared.MaxValueBytes + 1]));
        }

        // The same cluster through the client alone: a value of the whole request limit does not fit with its key.
        using var client = new EtcdClient(
            EtcdEndpoints.Parse(endpoint)[0].GetLeftPart(UriPartial.Authority),
            configureChannelOptions: channel => channel.Credentials = ChannelCredentials.Insecure);
        RpcException refused = Assert.Throws<RpcException>(() =>
            client.Put(
                new PutRequest { Key = ByteString.CopyFromUtf8("k"), Value = ByteString.CopyFrom(new byte[EtcdRow.MaxRequestBytes]) }));
        output.WriteLine($"A {EtcdRow.MaxRequestBytes:N0}-byte value: {refused.StatusCode}: {refused.Status.Detail}");
        Assert.Contains("request is too large", refused.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Writes_past_the_database_quota_are_refused_as_a_full_store_and_reads_go_on()
    {
        const long Quota = 16L * 1024 * 1024;
        var row = (EtcdRow)StoreCatalog.Row(EtcdRow.RowName);
        await using var cluster = new EtcdCluster(row, DurabilityTiers.All, quotaBackendBytes: Quota);
        await cluster.StartAsync();
        using var directory = new TempDirectory();
        using IKeyValueStore store = StoreCatalog.Open(EtcdRow.RowName, new ServerStoreOptions { Directory = directory.Path, Endpoint = cluster.Endpoint });
        byte[] value = new byte[1024 * 1024];
        int written = 0;
        StoreFullException full = Assert.Throws<StoreFullException>(() =>
        {
            // Twice the quota in values: etcd must refuse before the end.
            for (; written < 2 * Quota / value.Length; written++)
            {
                store.Put(TestData.Key(written), value);
            }
        });

        output.WriteLine($"Quota {Quota:N0} B: {written} values of {value.Length:N0} B taken, then: {full.Message}");
        Assert.InRange(written, 1, (int)(Quota / value.Length));
        Assert.Equal(value, store.Get(TestData.Key(0)));
    }
}
