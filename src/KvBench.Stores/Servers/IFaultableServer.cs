using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// A server or cluster KvBench started for one caller alone, whose members a fault test kills or pauses one at a time
/// and brings back (<see cref="PrivateServer"/>): a cluster's members, or a server of one process, which leads
/// itself. Stopped, every process gone and its data deleted, when disposed.
/// </summary>
public interface IFaultableServer : IAsyncDisposable
{
    /// <summary>The row it runs for.</summary>
    ServerRow Row { get; }

    /// <summary>The tier it is set up for.</summary>
    Durability Durability { get; }

    /// <summary>Its client endpoint, or every member's comma-separated, as the row's <c>--endpoint</c> takes them.</summary>
    string Endpoint { get; }

    /// <summary>How many members it has: 1 for a server of its own.</summary>
    int MemberCount { get; }

    /// <summary>The index of the member that leads now.</summary>
    /// <exception cref="InvalidOperationException">No member that answered named a leader.</exception>
    Task<int> LeaderAsync(CancellationToken cancellationToken = default);

    /// <summary>Faults member <paramref name="member"/> by <paramref name="fault"/>.</summary>
    /// <returns>The <see cref="System.Diagnostics.Stopwatch"/> timestamp taken just before the signal went out.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="member"/> is no member's index.</exception>
    Task<long> FaultAsync(int member, MemberFault fault);

    /// <summary>Ends <paramref name="fault"/> on member <paramref name="member"/>: starts a killed member again on its data, resumes a paused one.</summary>
    Task EndFaultAsync(int member, MemberFault fault, CancellationToken cancellationToken = default);
}
