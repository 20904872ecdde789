using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Servers;

public sealed class HostPortTests
{
    [Theory]
    [InlineData("127.0.0.1:5432", "127.0.0.1", 5432)]
    [InlineData("db.example.org:3306", "db.example.org", 3306)]
    public void A_host_and_port_are_split_at_the_last_colon(string endpoint, string host, int port)
    {
        Assert.True(HostPort.TryParse(endpoint, out HostPort parsed));
        Assert.Equal(new HostPort(host, port), parsed);
    }

    [Theory]
    [InlineData("Host=127.0.0.1;Port=5432")]
    [InlineData("127.0.0.1")]
    [InlineData(":6379")]
    [InlineData("127.0.0.1:0")]
    [InlineData("127.0.0.1:70000")]
    [InlineData("127.0.0.1:-1")]
    public void Anything_else_is_not_a_host_and_port(string endpoint) =>
        Assert.False(HostPort.TryParse(endpoint, out _));
}
