using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>A server row a round that kills a server leaves out, and why, in a few words that follow "Not measured: ROW: ".</summary>
public sealed record ServerLeftOut(ServerRow Row, string Reason);

/// <summary>
/// The rounds that kill a server (or cut the power under it): each server row and tier they run at, and each row they
/// leave out.
/// </summary>
public sealed record OneServerPlan(IReadOnlyList<(ServerRow Row, Durability Durability)> Planned, IReadOnlyList<ServerLeftOut> LeftOut);

/// <summary>The server rows whose one server process a round may kill (or cut the power under), and those it may not.</summary>
public static class OneServerRows
{
    /// <summary>
    /// Each server row and tier a round that kills a server runs at (every tier a row offers), and each row left out
    /// with why: not installable here, pointed at a user's own server (KvBench kills only its own), or a cluster, whose
    /// members are killed one at a time by the cluster's own fault test while the others serve, not all at once.
    /// </summary>
    /// <param name="powerCut">
    /// Plan power-loss rounds: a row whose server a power cut on KvBench's FUSE file system would not test as it runs
    /// (<see cref="ServerRow.PowerCutNotModelled"/>) is left out too.
    /// </param>
    public static OneServerPlan Plan(bool powerCut = false)
    {
        var planned = new List<(ServerRow Row, Durability Durability)>();
        var leftOut = new List<ServerLeftOut>();
        foreach (ServerRow row in StoreCatalog.ServerRows)
        {
            if (WhyLeftOut(row, powerCut) is { } reason)
            {
                leftOut.Add(new ServerLeftOut(row, reason));
            }
            else
            {
                planned.AddRange(Enum.GetValues<Durability>().Where(tier => row.Declared.Durability.Offers(tier)).Select(tier => (row, tier)));
            }
        }

        return new OneServerPlan(planned, leftOut);
    }

    private static string? WhyLeftOut(ServerRow row, bool powerCut) =>
        row.UnavailableReason is { } reason ? reason
        : row.UserEndpoint is not null ? $"{row.EndpointVariable} points it at a server of the user's own, which KvBench does not kill"
        : !row.IsOneProcess
            ? $"it runs a cluster ({row.Replication}), whose members a kill round would kill all at once; a member killed " +
                "while the others serve is the cluster's fault test"
        : powerCut ? row.PowerCutNotModelled
        : null;
}
