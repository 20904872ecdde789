using KvBench.Evaluation.Measuring;

namespace KvBench.Benchmarks.Targets;

/// <summary>
/// Marks an <see cref="IPointTarget"/> as a raw-driver baseline or naive usage of a catalog row. The class needs a
/// constructor taking the data directory; <see cref="PointTargets"/> finds it, so adding one is adding one file.
/// </summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = false)]
internal sealed class PointVariantAttribute(string row, RowVariantKind kind) : Attribute
{
    public string Row { get; } = row;

    public RowVariantKind Kind { get; } = kind;

    /// <summary>
    /// Whether many threads may call the target at once, each through <see cref="IPointTarget.ForAnotherThread"/>; a
    /// variant that keeps one connection, transaction or scratch file serves one thread only.
    /// </summary>
    public bool ManyThreads { get; init; }

    /// <summary>
    /// The one value size the variant is measured at (0: every size of <see cref="PointOperationCases.ValueBytes"/>); its
    /// ratio cells at other sizes read "not measured". For the naive usages, which answer a question of usage rather
    /// than of size, and for a variant whose every case costs the run seconds: the default run's 15 minutes hold only so
    /// many cases on two cores (see <see cref="KvBenchConfig.EvaluationJob"/>).
    /// </summary>
    public int OnlyValueBytes { get; init; }
}
