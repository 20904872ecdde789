using System.Diagnostics;

using KvBench.Core;
using KvBench.Stores.Servers;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The dqlite cluster KvBench runs for the dqlite row: <see cref="Members"/> <c>dqlite-demo</c> nodes on loopback, each
/// with a dqlite port (<c>--db</c>, the one clients and peers use) and an HTTP port of its own (<c>--api</c>, which
/// KvBench does not use but the demo requires) and a data directory of its own below the cluster's. The first node
/// starts a cluster of one; the others join it (<c>--join</c>) and the demo's role management makes them voters.
/// Ready once the cluster lists every node as a voter. Disposed, every node is killed and the data deleted.
/// </summary>
/// <param name="row">The dqlite row.</param>
/// <param name="tiers">The tiers it serves.</param>
/// <param name="dataParent">The folder its data directory is made in; default (<see langword="null"/>): under the system temp folder.</param>
internal sealed class DqliteCluster(DqliteRow row, DurabilityTiers tiers, string? dataParent = null) : ServerProcesses(row, tiers, Members, dataParent)
{
    /// <summary>Three: the fewest nodes that keep a quorum with one of them lost.</summary>
    public const int Members = 3;

    private const string Node = "/usr/bin/dqlite-demo";

    /// <summary>How long a member's answer to <c>.leader</c> is waited for: a paused member never answers.</summary>
    private static readonly TimeSpan s_leaderTimeout = TimeSpan.FromSeconds(2);

    protected override string NotReady => "were not all voters";

    /// <summary>
    /// Runs <paramref name="command"/> (a line of SQL or a dot command) through the dqlite shell on the cluster of
    /// <paramref name="endpoint"/>, and returns the lines it printed without the shell's prompts, or
    /// <see langword="null"/> when it failed or did not finish within <paramref name="timeout"/> (the shell waits
    /// forever for a leader where there is none).
    /// </summary>
    internal static string[]? Ask(string endpoint, string command, TimeSpan timeout)
    {
        (int exitCode, string output) = ServerCommand.Run(new ProcessStartInfo(DqliteShell.Program, ["-s", endpoint, DqliteRow.Database, command]), timeout);
        return exitCode == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) : null;
    }

    /// <summary>
    /// Each member is asked on its own which member leads (a member that is not the leader asks the one it names), so a
    /// paused member holds up only its own question; the leader is the member most of the answers name.
    /// </summary>
    public override async Task<int> LeaderAsync(CancellationToken cancellationToken)
    {
        string[] members = [.. MemberEndpoints];
        string?[] answers = await Task.WhenAll(
            members.Select(member =>
                Task.Run(
                    () => Ask(member, ".leader", s_leaderTimeout) is [string leader] ? leader : null,
                    cancellationToken))).ConfigureAwait(false);
        int found = answers.OfType<string>().GroupBy(answer => answer, StringComparer.Ordinal).OrderByDescending(named => named.Count())
            .Select(named => Array.IndexOf(members, named.Key)).FirstOrDefault(index => index >= 0, -1);
        return found >= 0
            ? found
            : throw new InvalidOperationException(
                $"No member of {Row.Name}'s cluster that answered named a member as its leader (answers: " +
                    $"{string.Join(", ", answers.Select(answer => answer ?? "none"))}).");
    }

    /// <summary>
    /// The first node starts a cluster of one once it listens; the others join it (<c>--join</c>), each with a dqlite port
    /// (<c>--db</c>, the one clients and peers use) and an HTTP port of its own (<c>--api</c>, which KvBench does not use
    /// but the demo requires). <c>--join</c> is given at a restart too, where the node finds its identity in its data
    /// and does not join anew.
    /// </summary>
    protected override IReadOnlyList<ClusterMember> CreateMembers(string dataDirectory, int[] ports) =>
    [
        .. Enumerable.Range(0, Members).Select(index =>
        {
            int dbPort = ports[2 * index];
            string directory = Path.Combine(dataDirectory, $"node{index}");
            Directory.CreateDirectory(directory);
            List<string> arguments = ["--api", $"127.0.0.1:{ports[(2 * index) + 1]}", "--db", $"127.0.0.1:{dbPort}", "--dir", directory];
            if (index > 0)
            {
                arguments.AddRange(["--join", $"127.0.0.1:{ports[0]}"]);
            }

            return MemberListeningOn(dbPort, new ProcessStartInfo(Node, arguments));
        }),
    ];
}
