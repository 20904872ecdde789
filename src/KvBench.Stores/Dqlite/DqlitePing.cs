using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The round trip of the dqlite row's own client: <c>SELECT 1</c> through one shell process, which the shell runs as
/// every line, in a transaction of its own on the leader (BEGIN, the query, COMMIT), and the line that ends a request.
/// </summary>
internal sealed class DqlitePing(string endpoint) : IServerPing
{
    private readonly DqliteShell _shell = new(
        DqliteRow.RowName, [.. DqliteEndpoints.Parse(endpoint)], DqliteRow.Database,
        DqliteStoreOptions.DefaultRequestTimeout);

    public string Request => "SELECT 1 through the shell";

    public void RoundTrip() => _shell.Run(["SELECT 1"]);

    public void Dispose() => _shell.Dispose();
}
