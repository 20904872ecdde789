using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The members of a dqlite cluster as a user names them (<c>--endpoint</c>, <c>KVBENCH_DQLITE_ENDPOINT</c>) and KvBench's
/// own cluster publishes them: comma-separated <c>host:port</c> addresses of the members' dqlite (<c>--db</c>) ports,
/// which the shell takes as they are.
/// </summary>
internal static class DqliteEndpoints
{
    /// <summary>Every member of <paramref name="endpoints"/>, <c>host:port</c> each.</summary>
    /// <exception cref="ArgumentException">The list is empty or a member is not <c>host:port</c>.</exception>
    public static IReadOnlyList<string> Parse(string endpoints)
    {
        string[] members = ClusterEndpoints.Split(endpoints, DqliteRow.RowName);

        foreach (string member in members)
        {
            if (!HostPort.TryParse(member, out HostPort hostPort) || hostPort.Host.Length == 0 || member.Contains('/', StringComparison.Ordinal))
            {
                throw new ArgumentException($"'{member}' in the dqlite endpoint '{endpoints}' is not host:port.", nameof(endpoints));
            }
        }

        return members;
    }
}
