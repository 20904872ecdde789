namespace KvBench.Evaluation.MultiProcess;

/// <summary>
/// How long a two-process check waits for each step before it kills the workers and reports what it saw. These are
/// bounds against hangs on a loaded machine, not speed goals: a healthy step takes a small fraction of them.
/// </summary>
public sealed record MultiProcessTimeouts
{
    /// <summary>From starting a worker process to its store being open (or the open failing).</summary>
    public TimeSpan Ready { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>For a worker to see the first of its peer's records.</summary>
    public TimeSpan SeePeer { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>From asking a worker to stop to its exit.</summary>
    public TimeSpan Exit { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The longest a second open may take to fail with <see cref="Core.StoreLockedException"/>: the contract's
    /// "fail fast" bound, so a lock that is found only after a long wait does not count as exclusive access.
    /// </summary>
    public TimeSpan LockedOpenFailsWithin { get; init; } = TimeSpan.FromSeconds(2);
}
