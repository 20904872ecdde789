using KvBench.Stores.Servers;

namespace KvBench.Stores.Etcd;

/// <summary>
/// The members of an etcd cluster as a user names them (<c>--endpoint</c>, <c>KVBENCH_ETCD_ENDPOINT</c>) and KvBench's
/// own cluster publishes them: comma-separated <c>host:port</c> client endpoints, each optionally with <c>http://</c>.
/// </summary>
internal static class EtcdEndpoints
{
    /// <summary>The client URL of every member of <paramref name="endpoints"/>.</summary>
    /// <exception cref="ArgumentException">
    /// The list is empty or a member is not <c>host:port</c> (https is not spoken: KvBench passes no certificates).
    /// </exception>
    public static IReadOnlyList<Uri> Parse(string endpoints)
    {
        string[] members = ClusterEndpoints.Split(endpoints, EtcdRow.RowName);

        return [.. members.Select(member => Member(member, endpoints))];
    }

    private static Uri Member(string member, string endpoints)
    {
        const string Http = "http://";
        string address = member.StartsWith(Http, StringComparison.OrdinalIgnoreCase) ? member[Http.Length..] : member;
        if (!HostPort.TryParse(address, out HostPort hostPort) || hostPort.Host.Length == 0 || address.Contains('/', StringComparison.Ordinal)
            || !Uri.TryCreate(Http + address, UriKind.Absolute, out Uri? url))
        {
            throw new ArgumentException($"'{member}' in the etcd endpoint '{endpoints}' is not host:port (or http://host:port).", nameof(endpoints));
        }

        return url;
    }
}
