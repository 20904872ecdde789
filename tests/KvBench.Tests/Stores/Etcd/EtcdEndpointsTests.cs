using KvBench.Stores.Etcd;


namespace KvBench.Tests.Stores.Etcd;

public sealed class EtcdEndpointsTests
{
    [Fact]
    public void A_list_of_members_is_read_as_their_client_urls_in_order()
    {
        IReadOnlyList<Uri> members = EtcdEndpoints.Parse("10.0.0.1:2379, http://etcd-b:2379,127.0.0.1:23790");

        Assert.Equal(["http://10.0.0.1:2379/", "http://etcd-b:2379/", "http://127.0.0.1:23790/"], members.Select(member => member.ToString()));
    }

    [Theory]
    [InlineData("")]
    [InlineData(" , ")]
    [InlineData("etcd-a")]
    [InlineData("etcd-a:2379,etcd-b")]
    [InlineData("https://etcd-a:2379")]
    [InlineData("etcd-a:2379/v3")]
    [InlineData("etcd-a:99999")]
    public void A_member_that_is_not_host_and_port_is_refused_by_name(string endpoints)
    {
        ArgumentException refused = Assert.Throws<ArgumentException>(() => EtcdEndpoints.Parse(endpoints));

        Assert.Contains("host:port", refused.Message, StringComparison.Ordinal);
    }
}
