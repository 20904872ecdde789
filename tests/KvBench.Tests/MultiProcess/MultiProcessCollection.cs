namespace KvBench.Tests.MultiProcess;

/// <summary>
/// The tests that start several CLI processes run one at a time and apart from the rest: on a two-core machine, processes
/// of other tests would only stretch every wait, and the contention test means to measure two writers, not ten.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MultiProcessCollection
{
    public const string Name = "MultiProcess";
}
