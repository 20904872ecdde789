using KvBench.Stores.Baselines;

namespace KvBench.Evaluation.Measuring;

/// <summary>One measured point operation: a method on a row at one value size.</summary>
/// <param name="Method">One of <see cref="PointMethods"/>.</param>
/// <param name="Row">The benchmark row: a catalog name, or a raw or naive variant (see <see cref="RowVariants"/>).</param>
/// <param name="ValueBytes">The value size.</param>
/// <param name="MeanNanoseconds">The mean time of one operation.</param>
/// <param name="MedianNanoseconds">The median over iterations of the time of one operation: what ratios divide, since
/// an iteration slowed by another process on a shared machine moves the mean of a few iterations but not the median.</param>
/// <param name="AllocatedBytes">Bytes allocated per operation, or <see langword="null"/> when not measured.</param>
/// <param name="IterationNanoseconds">
/// The time of one operation in each measured iteration, which the ratios' confidence intervals resample
/// (<see cref="RatioInterval"/>); empty when the run kept none.
/// </param>
/// <param name="Threads">How many threads called at once; the time is the run's wall time per operation of all of them.</param>
public sealed record PointResult(
    string Method,
    string Row,
    int ValueBytes,
    double MeanNanoseconds,
    double MedianNanoseconds,
    long? AllocatedBytes,
    IReadOnlyList<double>? IterationNanoseconds = null,
    int Threads = 1);
