using KvBench.Core;
using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>
/// What a team writes down before it chooses a store: its workload, what the choice must meet or should favour, and the
/// rows it considers. <c>kvbench decide --profile FILE</c> reads one (see <see cref="ProfileReader"/>), measures what its
/// drivers need and writes the decision record.
/// </summary>
public sealed record DecisionProfile
{
    /// <summary>The decision record's title: the question the team answers.</summary>
    public required string Title { get; init; }

    /// <summary>The problem in the team's own words, printed at the top of the record; <see langword="null"/> for none.</summary>
    public string? Context { get; init; }

    /// <summary>The workload every candidate is measured under.</summary>
    public required ProfileWorkload Workload { get; init; }

    /// <summary>What the choice must meet or should favour, in the profile's order.</summary>
    public required IReadOnlyList<Driver> Drivers { get; init; }

    /// <summary>The rows considered, by name; <see langword="null"/> for every embedded row this machine can open.</summary>
    public IReadOnlyList<string>? Candidates { get; init; }

    /// <summary>
    /// The assemblies whose rows the profile names as candidates (<c>rowAssemblies</c>), as full paths, loaded when the
    /// profile was read; empty when it names none.
    /// </summary>
    public IReadOnlyList<string> RowAssemblies { get; init; } = [];
}

/// <summary>A team's workload, as a profile states it.</summary>
public sealed record ProfileWorkload
{
    /// <summary>Each key's length. Default: 16 bytes.</summary>
    public LengthDistribution KeyBytes { get; init; } = LengthDistribution.Fixed(16);

    /// <summary>How keys look. Default: random.</summary>
    public KeyShape KeyShape { get; init; } = KeyShape.Random;

    /// <summary>Each value's length. Default: 128 bytes.</summary>
    public LengthDistribution ValueBytes { get; init; } = LengthDistribution.Fixed(WorkloadSpec.DefaultValueBytes);

    /// <summary>Records loaded before the run. Default: 100,000.</summary>
    public long Records { get; init; } = 100_000;

    /// <summary>The operations and their shares. Default: half reads, half updates.</summary>
    public OperationMix Mix { get; init; } = OperationMix.HalfReads;

    /// <summary>The longest scan; each scan's length is uniform in 1 to this. Default: 100.</summary>
    public int ScanLength { get; init; } = 100;

    /// <summary>How records are picked. Default: zipfian.</summary>
    public KeyDistribution Popularity { get; init; } = KeyDistribution.Zipfian;

    /// <summary>The zipfian constant when <see cref="Popularity"/> is zipfian. Default: YCSB's 0.99.</summary>
    public double ZipfianConstant { get; init; } = ZipfianGenerator.DefaultTheta;

    /// <summary>Threads issuing operations in the measured process. Default: 1.</summary>
    public int Threads { get; init; } = 1;

    /// <summary>
    /// Reader processes beside the writer process (a UI beside a CLI); 0 for one process. The measured process is the
    /// one that runs <see cref="Mix"/>; the others read and write as the profile's processes do. Default: 0.
    /// </summary>
    public int ReaderProcesses { get; init; }

    /// <summary>Operations per second across all threads (an open loop), or <see langword="null"/> for as fast as the store goes.</summary>
    public double? Rate { get; init; }

    /// <summary>What an acknowledged write must survive. Default: Buffered.</summary>
    public Durability Durability { get; init; } = Durability.Buffered;
}
