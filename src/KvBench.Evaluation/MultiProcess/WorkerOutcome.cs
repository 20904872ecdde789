namespace KvBench.Evaluation.MultiProcess;

/// <summary>A worker's result, and the error that kept it from opening the store, for the caller to turn into an exit code.</summary>
/// <param name="Result">What the worker did and saw.</param>
/// <param name="OpenFailure">The error the open threw, or <see langword="null"/> when the store opened.</param>
public sealed record WorkerOutcome(WorkerResult Result, Exception? OpenFailure)
{
    /// <summary>Whether the store opened and every call after that succeeded with the right bytes.</summary>
    public bool Succeeded => OpenFailure is null && Result.ErrorCount == 0 && Result.WrongPeerValues == 0;
}
