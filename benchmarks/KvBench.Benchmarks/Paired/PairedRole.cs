namespace KvBench.Benchmarks.Paired;

/// <summary>
/// Which side of a paired measurement a loop of calls runs for. Each side runs its own compiled copy of the loops
/// (<see cref="RowLoops"/>, <see cref="ReferenceLoops"/>): one copy shared by both sides has one call site for two
/// target classes, and dynamic PGO, which samples the classes a site sees, may inline a guess for one of them (the
/// other then pays a failed guard and an interface call), and which one it guesses need not be the same in every process.
/// </summary>
internal enum PairedRole
{
    /// <summary>The row: the adapter behind the contract.</summary>
    Row,

    /// <summary>What the row is divided by: its raw driver.</summary>
    Reference,
}

/// <summary>
/// Instantiates the row's copy of a loop: the JIT compiles a generic method once for each value type it is given, and
/// profiles each copy apart.
/// </summary>
internal readonly struct RowLoops;

/// <summary>Instantiates the reference's copy of a loop (see <see cref="RowLoops"/>).</summary>
internal readonly struct ReferenceLoops;
