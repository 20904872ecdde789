using KvBench.Core;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>What one worker process did and saw; printed by the worker as its last JSON line.</summary>
public sealed record WorkerResult
{
    /// <summary>The worker's name.</summary>
    public required string Worker { get; init; }

    /// <summary>The row name of the store.</summary>
    public required string Store { get; init; }

    /// <summary>How the worker opened the store.</summary>
    public required StoreAccess Access { get; init; }

    /// <summary>Whether the store opened.</summary>
    public required bool Opened { get; init; }

    /// <summary>How long the open took, or how long it took to fail.</summary>
    public required double OpenMilliseconds { get; init; }

    /// <summary>The type name of the error the open threw (for example <c>StoreLockedException</c>), or <see langword="null"/>.</summary>
    public string? OpenError { get; init; }

    /// <summary>The message of the error the open threw.</summary>
    public string? OpenErrorMessage { get; init; }

    /// <summary>How many of the worker's records were acknowledged: <c>Put</c> then <c>Flush</c> returned.</summary>
    public long Written { get; init; }

    /// <summary>
    /// For a worker that opened without write access: the type name of the error its one write attempt got, or
    /// <see langword="null"/> when the write was accepted.
    /// </summary>
    public string? WriteRefusedWith { get; init; }

    /// <summary>How many of the peer's records (counted from the first, each with exact bytes) the worker saw before it was asked to stop.</summary>
    public long PeerSeenWhileRunning { get; init; }

    /// <summary>How many of the peer's records the worker saw in all, after a last look once stopped.</summary>
    public long PeerSeen { get; init; }

    /// <summary>How many times a peer's record was present with other bytes than the peer wrote.</summary>
    public long WrongPeerValues { get; init; }

    /// <summary>How many store calls threw after the open.</summary>
    public long ErrorCount { get; init; }

    /// <summary>The first few of those errors, as <c>Type: message</c>.</summary>
    public IReadOnlyList<string> Errors { get; init; } = [];
}
