namespace KvBench.Evaluation.Workload;

/// <summary>
/// How a workload's keys look. <see cref="Random"/>: spread over the key space in no useful order (YCSB's hashed keys).
/// Prefixed: each key starts with one of <see cref="Prefixes"/> prefixes, and the keys under one prefix are ordered
/// by record index, as real keys are ("user/42/…", a table id before a row id), so a prefix scan returns neighbours.
/// </summary>
/// <param name="Prefixes">How many prefixes the records are spread over; 0 for random keys.</param>
public sealed record KeyShape(int Prefixes = 0)
{
    /// <summary>Keys spread over the key space in no useful order.</summary>
    public static KeyShape Random { get; } = new();

    /// <summary>Whether keys carry a prefix and are ordered under it.</summary>
    public bool IsPrefixed => Prefixes > 0;

    /// <summary>"random" or "64 prefixes, ordered under each".</summary>
    public override string ToString() => IsPrefixed ? $"{Prefixes:N0} prefixes, ordered under each" : "random";
}
