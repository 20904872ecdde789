namespace KvBench.Stores.Servers;

/// <summary>
/// A cluster KvBench runs for a row (three members): a <see cref="RunningServer"/> whose members can be faulted
/// one at a time, as a cluster's fault test does (<see cref="PrivateCluster"/>).
/// </summary>
internal abstract class RunningCluster : RunningServer
{
    /// <summary>How many members it has.</summary>
    public abstract int MemberCount { get; }

    /// <summary>The index of the member that leads now, asked of the members that answer within <paramref name="cancellationToken"/>'s time.</summary>
    /// <exception cref="InvalidOperationException">No member answering knew of a leader.</exception>
    public abstract Task<int> LeaderAsync(CancellationToken cancellationToken);

    /// <summary>Kills member <paramref name="member"/>'s process tree with SIGKILL and waits until it is gone; its data stays.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    public abstract Task<long> KillMemberAsync(int member);

    /// <summary>Starts member <paramref name="member"/> again on its data after <see cref="KillMemberAsync"/>, and waits until it listens.</summary>
    public abstract Task RestartMemberAsync(int member, CancellationToken cancellationToken);

    /// <summary>Sends <paramref name="signal"/> to member <paramref name="member"/>'s process; whether it was delivered.</summary>
    public abstract bool SignalMember(int member, int signal);
}
