using KvBench.Stores.Servers;


namespace KvBench.Evaluation.Reports.Sections.ClusterFaults;

/// <summary>Which member a cluster fault hits.</summary>
public enum FaultTarget
{
    /// <summary>The member that leads when the fault begins: the cluster must elect another before it takes writes.</summary>
    Leader,

    /// <summary>A member that does not lead: the others still form a majority, and writes should go on.</summary>
    Follower,
}

/// <summary>
/// A node fault under load (<see cref="ClusterFault"/>): YCSB workload A's mix (half reads, half updates, uniform over
/// <see cref="Records"/> keys) sent at a fixed <see cref="Rate"/> for <see cref="Before"/>, then with one member faulted
/// for <see cref="During"/>, then with it back for <see cref="After"/>.
/// </summary>
public sealed record ClusterFaultSettings
{
    /// <summary>
    /// Operations sent per second, open loop: each is due at its own time whether or not the last returned. Default:
    /// 100, well below what a synced three-member etcd takes from one client, so a stall is the fault's and not the
    /// load's.
    /// </summary>
    public int Rate { get; init; } = 100;

    /// <summary>
    /// Clients sending at once, each every <see cref="Clients"/>-th operation of the schedule on a thread of its own.
    /// Default: 4: with one, a call waiting on a paused member holds back every operation after it, so nothing could read
    /// around the fault while it lasts, nor see a stale answer.
    /// </summary>
    public int Clients { get; init; } = 4;

    /// <summary>Keys the operations choose among, uniformly. Default: 100, so every key is written several times while the fault lasts.</summary>
    public int Records { get; init; } = 100;

    /// <summary>Bytes per value. Default: 128, the tables' size.</summary>
    public int ValueBytes { get; init; } = 128;

    /// <summary>Share of reads; the rest are updates. Default: 0.5, YCSB's workload A.</summary>
    public double ReadFraction { get; init; } = 0.5;

    /// <summary>How the member is faulted. Default: killed with SIGKILL, and started again on its data.</summary>
    public MemberFault Fault { get; init; } = MemberFault.Kill;

    /// <summary>Which member. Default: the leader.</summary>
    public FaultTarget Target { get; init; } = FaultTarget.Leader;

    /// <summary>
    /// Whether reads go without a quorum, where the row offers such reads (<see cref="ServerRow.WithRelaxedReads"/>:
    /// etcd's serializable reads), so a member cut off or deposed may answer stale. Default: <see langword="false"/>,
    /// the row's own reads (etcd's linearizable).
    /// </summary>
    public bool RelaxedReads { get; init; }

    /// <summary>Load before the fault. Default: 3 s.</summary>
    public TimeSpan Before { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>How long the member stays faulted. Default: 4 s, longer than etcd's election timeout (1 s by default).</summary>
    public TimeSpan During { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>Load after the member is back. Default: 4 s.</summary>
    public TimeSpan After { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>
    /// The first of the clients' random streams (client c draws from stream + c), for the keys and the mix: two runs
    /// send the same operations.
    /// </summary>
    public int RandomStream { get; init; } = 20261126;

    /// <summary>A few seconds in all, for the tests' short form.</summary>
    public static ClusterFaultSettings Short { get; } = new()
    {
        Rate = 50,
        Before = TimeSpan.FromSeconds(1),
        During = TimeSpan.FromSeconds(2.5),
        After = TimeSpan.FromSeconds(1.5),
    };

    /// <exception cref="ArgumentException">A setting is out of its range.</exception>
    public void Validate()
    {
        if (Rate <= 0 || Records <= 0 || Clients <= 0 || ValueBytes < sizeof(long) || ReadFraction is < 0 or > 1)
        {
            throw new ArgumentException(
                $"A cluster fault needs a rate and records of at least 1, values of at least {sizeof(long)} bytes " +
                    $"and a read share from 0 to 1 (got {Rate}/s, {Records}, {ValueBytes} B, {ReadFraction}), and at " +
                    $"least one client (got {Clients}).");
        }

        if (Before <= TimeSpan.Zero || During <= TimeSpan.Zero || After <= TimeSpan.Zero)
        {
            throw new ArgumentException("A cluster fault needs time before, during and after the fault.");
        }
    }
}
