namespace KvBench.Stores.Servers;

/// <summary>How a member of a cluster (or a server of one, its only member) is faulted.</summary>
public enum MemberFault
{
    /// <summary>SIGKILL, and the member started again on its data when the fault ends.</summary>
    Kill,

    /// <summary>SIGSTOP, and SIGCONT when the fault ends: a member that neither answers nor knows it was away, as a partition leaves it.</summary>
    Pause,
}
