namespace KvBench.Evaluation.Workload;

/// <summary>
/// YCSB's core workloads A to F (the workloads/workloada ... workloadf files of the YCSB distribution), with KvBench's
/// sizes beside YCSB's defaults.
/// </summary>
/// <remarks>
/// YCSB's defaults: recordcount 1,000 in the files (users set 10^6 or more), 10 fields of 100 bytes per record (1 KB),
/// keys "user" plus a hashed number, requestdistribution zipfian (constant 0.99, scrambled) except D (latest),
/// maxscanlength 100 with uniform scan lengths, readallfields true, writeallfields false. KvBench keeps each workload's
/// operation mix and distribution, and stores a record as one value of <see cref="WorkloadSpec.ValueBytes"/> (128 bytes
/// by default, the point-operation size) under a 9-byte key, with 100,000 records by default: a key-value store has no
/// fields, and the sizes are the evaluation's, so YCSB tables compare with KvBench's other tables.
/// </remarks>
public static class YcsbWorkloads
{
    /// <summary>A: update heavy, 50% reads and 50% updates (a session store recording recent actions).</summary>
    public static WorkloadSpec A { get; } = new() { Name = "YCSB-A", Mix = new(Read: 0.5, Update: 0.5) };

    /// <summary>B: read mostly, 95% reads and 5% updates (photo tagging).</summary>
    public static WorkloadSpec B { get; } = new() { Name = "YCSB-B", Mix = new(Read: 0.95, Update: 0.05) };

    /// <summary>C: read only (a user-profile cache).</summary>
    public static WorkloadSpec C { get; } = new() { Name = "YCSB-C", Mix = new(Read: 1) };

    /// <summary>D: read latest, 95% reads and 5% inserts, the newest records the most read (status updates).</summary>
    public static WorkloadSpec D { get; } = new() { Name = "YCSB-D", Mix = new(Read: 0.95, Insert: 0.05), Distribution = KeyDistribution.Latest };

    /// <summary>E: short ranges, 95% scans of up to 100 records and 5% inserts (threaded conversations).</summary>
    public static WorkloadSpec E { get; } = new() { Name = "YCSB-E", Mix = new(Insert: 0.05, Scan: 0.95) };

    /// <summary>F: read-modify-write, 50% reads and 50% read-modify-writes (a user database).</summary>
    public static WorkloadSpec F { get; } = new() { Name = "YCSB-F", Mix = new(Read: 0.5, ReadModifyWrite: 0.5) };

    /// <summary>A to F, in order.</summary>
    public static IReadOnlyList<WorkloadSpec> All { get; } = [A, B, C, D, E, F];

    /// <summary>The workload named <paramref name="name"/> ("A" or "YCSB-A", any case).</summary>
    /// <exception cref="ArgumentException">No workload has that name.</exception>
    public static WorkloadSpec Named(string name) =>
        Find(name) ?? throw new ArgumentException($"No YCSB workload is named '{name}'; they are A to F.", nameof(name));

    /// <summary>The workload named <paramref name="name"/> ("A" or "YCSB-A", any case), or <see langword="null"/>.</summary>
    public static WorkloadSpec? Find(string name)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return All.FirstOrDefault(workload =>
            workload.Name.Equals(name, StringComparison.OrdinalIgnoreCase)
                || workload.Name.EndsWith("-" + name, StringComparison.OrdinalIgnoreCase));
    }
}
