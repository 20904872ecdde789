using dotnet_etcd;

using Etcdserverpb;

using Google.Protobuf;

using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// The round trip of the etcd row's own client: a linearizable read of a key nobody writes, the smallest request that
/// goes through the leader's read index as every Get of the row does.
/// </summary>
internal sealed class EtcdPing(string endpoint) : IServerPing
{
    private static readonly ByteString s_absentKey = ByteString.CopyFromUtf8("kvbench-ping");

    private readonly EtcdClient _client = EtcdStore.Connect(endpoint);

    public string Request => "Range of an absent key (linearizable)";

    public void RoundTrip() => _client.Get(new RangeRequest { Key = s_absentKey, CountOnly = true });

    public void Dispose() => _client.Dispose();
}
