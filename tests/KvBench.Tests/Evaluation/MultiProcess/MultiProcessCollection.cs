

using KvBench.Tests.Evaluation.Probes;

namespace KvBench.Tests.Evaluation.MultiProcess;

/// <summary>
/// The tests whose verdicts hang on timing run one at a time and apart from the rest: the scan probe tells an ordered
/// index from a full scan by how its time grows, the two-process check waits a bounded time for each process to see the
/// other, and the contention tests mean to measure two writers, not ten. Tests that only start processes and check what
/// they left (crash rounds, damaged files) are not here: they hold whatever the load, so they run beside the others.
/// The rows' probe measurements are shared by the collection: the two-process check is part of them, so the
/// multi-process level tests read it instead of starting the same processes again.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MultiProcessCollection : ICollectionFixture<MeasuredRows>
{
    public const string Name = "MultiProcess";
}
