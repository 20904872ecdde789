using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>What a driver measures.</summary>
public enum DriverQuantity
{
    /// <summary>A capability cell (<see cref="Driver.Capability"/>): a largest size, or yes or no.</summary>
    Capability,

    /// <summary>Operations per second at the profile's workload (in the measured process).</summary>
    Throughput,

    /// <summary>
    /// A latency percentile of one operation (<see cref="Driver.Operation"/>, <see cref="Driver.Percentile"/>), alone
    /// or while a writer process works (<see cref="Driver.WhileWriting"/>).
    /// </summary>
    Latency,

    /// <summary>How long a write in one process takes to be seen by another, at the 99th percentile.</summary>
    VisibilityLag,

    /// <summary>The share of acknowledged writes found after crash rounds (the writer killed) at the profile's tier.</summary>
    CrashKept,

    /// <summary>
    /// The share of acknowledged writes found after power-loss rounds (the writer killed and what it had not flushed
    /// dropped) at the profile's tier.
    /// </summary>
    PowerLossKept,

    /// <summary>Bytes the store's directory holds per record after the load and the run.</summary>
    DiskBytesPerRecord,

    /// <summary>Bytes allocated on the managed heap per operation of the workload.</summary>
    AllocatedBytesPerOperation,

    /// <summary>CPU time (user and system) per operation of the workload.</summary>
    CpuPerOperation,
}

/// <summary>The capability cells a driver can name.</summary>
public enum CapabilityCell
{
    /// <summary>The longest key stored and read back (a size; threshold in bytes).</summary>
    KeyBytes,

    /// <summary>The longest value stored and read back (a size; threshold in bytes).</summary>
    ValueBytes,

    /// <summary>Whether the store grows past its initial size without a reopen (yes or no).</summary>
    Growth,

    /// <summary>Whether two processes can both write the store at once (yes or no).</summary>
    MultiProcessWriters,

    /// <summary>Whether a prefix scan is served by an ordered index (yes or no).</summary>
    OrderedScans,
}

/// <summary>Which way a driver's figure is better.</summary>
public enum Bound
{
    /// <summary>The figure must be at least the threshold (throughput, sizes, kept share).</summary>
    AtLeast,

    /// <summary>The figure must be at most the threshold (latency, bytes, CPU).</summary>
    AtMost,
}

/// <summary>
/// One decision driver: a quantity KvBench measures, a threshold in that quantity's unit, and either <see cref="Must"/>
/// (an option that misses it is out) or a <see cref="Weight"/> (options are ranked by it).
/// </summary>
public sealed record Driver
{
    /// <summary>What the record calls the driver; defaults to a description of what it measures.</summary>
    public required string Name { get; init; }

    /// <summary>What is measured.</summary>
    public required DriverQuantity Quantity { get; init; }

    /// <summary>For <see cref="DriverQuantity.Capability"/>, the cell.</summary>
    public CapabilityCell? Capability { get; init; }

    /// <summary>For <see cref="DriverQuantity.Latency"/>, the operation.</summary>
    public OperationType? Operation { get; init; }

    /// <summary>For <see cref="DriverQuantity.Latency"/>, the percentile: 50, 95, 99, 99.9 or 100 (the largest), those a latency summary keeps.</summary>
    public double Percentile { get; init; } = 99;

    /// <summary>For <see cref="DriverQuantity.Latency"/>, whether measured while a writer process imports beside the measured one.</summary>
    public bool WhileWriting { get; init; }

    /// <summary>Which way the figure is better.</summary>
    public required Bound Bound { get; init; }

    /// <summary>
    /// The threshold, in the quantity's base unit: operations per second, nanoseconds, bytes, a share in 0 to 1; 1 for a
    /// yes-or-no capability.
    /// </summary>
    public required double Threshold { get; init; }

    /// <summary>Whether an option that misses the threshold is out.</summary>
    public bool Must { get; init; }

    /// <summary>How much the driver counts when options are ranked; 0 for a must-driver.</summary>
    public double Weight { get; init; }
}
