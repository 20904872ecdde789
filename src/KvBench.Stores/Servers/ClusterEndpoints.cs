namespace KvBench.Stores.Servers;

/// <summary>A cluster's members as a user lists them (<c>--endpoint</c>, a row's endpoint variable): comma-separated, one address each.</summary>
internal static class ClusterEndpoints
{
    /// <summary>The members of <paramref name="endpoints"/>, trimmed, in order; each row then checks that every one is an address it speaks to.</summary>
    /// <exception cref="ArgumentException">The list names no member.</exception>
    public static string[] Split(string endpoints, string rowName)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        string[] members = endpoints.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return members.Length > 0
            ? members
            : throw new ArgumentException($"The {rowName} endpoint lists its members as host:port[,host:port...]; it was empty.", nameof(endpoints));
    }
}
