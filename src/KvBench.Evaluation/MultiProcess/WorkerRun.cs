using KvBench.Core;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>One finished worker process.</summary>
/// <param name="Worker">The worker's name.</param>
/// <param name="Access">How it opened the store.</param>
/// <param name="Result">Its last JSON line, or <see langword="null"/> when it printed none (it crashed or was killed).</param>
/// <param name="ExitCode">Its exit code, or <see langword="null"/> when it overran its timeout and was killed.</param>
/// <param name="StandardError">What it wrote to standard error.</param>
public sealed record WorkerRun(string Worker, StoreAccess Access, WorkerResult? Result, int? ExitCode, string StandardError)
{
    /// <summary>Whether the open failed because another process holds the store.</summary>
    public bool WasLockedOut => Result is { Opened: false, OpenError: nameof(StoreLockedException) };

    /// <summary>One line for a report: who, how, and what came of it.</summary>
    public override string ToString()
    {
        string exit = ExitCode is { } code ? $"exit code {code}" : "killed after its timeout";
        return Result switch
        {
            null => $"{Worker} ({Access}): no result, {exit}; stderr: {StandardError.Trim()}",
            { Opened: false } r => $"{Worker} ({Access}): open failed after {r.OpenMilliseconds:0} ms with {r.OpenError}: {r.OpenErrorMessage}; {exit}",
            var r => $"{Worker} ({Access}): opened in {r.OpenMilliseconds:0} ms, "
                + (Access == StoreAccess.ReadWrite
                    ? $"wrote {r.Written}, "
                    : $"its write {(r.WriteRefusedWith is null ? "was accepted" : "was refused with " + r.WriteRefusedWith)}, ")
                + $"saw {r.PeerSeenWhileRunning} of the peer's records while running and {r.PeerSeen} in all, {r.WrongPeerValues} wrong, "
                + $"{r.ErrorCount} errors{(r.Errors.Count > 0 ? " (" + string.Join("; ", r.Errors) + ")" : string.Empty)}; {exit}",
        };
    }
}
