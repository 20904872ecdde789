using KvBench.Core;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.MultiProcess;

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
    public static (IReadOnlyList<(ServerRow Row, Durability Durability)> Planned, IReadOnlyList<string> LeftOut) Plan(bool powerCut = false)
    {
        var planned = new List<(ServerRow Row, Durability Durability)>();
        var leftOut = new List<string>();
        foreach (ServerRow row in StoreCatalog.ServerRows)
        {
            if (row.UnavailableReason is { } reason)
            {
                leftOut.Add($"{row.Name}: {reason}");
            }
            else if (Environment.GetEnvironmentVariable(row.EndpointVariable) is { Length: > 0 })
            {
                leftOut.Add($"{row.Name}: {row.EndpointVariable} points it at a server of the user's own, which KvBench does not kill");
            }
            else if (!row.IsOneProcess)
            {
                leftOut.Add(
                    $"{row.Name}: it runs a cluster ({row.Replication}), whose members a kill round would kill all " +
                        $"at once; a member killed while the others serve is the cluster's fault test");
            }
            else if (powerCut && row.PowerCutNotModelled is { } notModelled)
            {
                leftOut.Add($"{row.Name}: {notModelled}");
            }
            else
            {
                planned.AddRange(Enum.GetValues<Durability>().Where(tier => row.Declared.Durability.Offers(tier)).Select(tier => (row, tier)));
            }
        }

        return (planned, leftOut);
    }
}
