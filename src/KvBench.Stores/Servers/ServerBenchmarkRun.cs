using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>What a server's own benchmark runs: the same value size, keyspace, client count and tier as the row beside it.</summary>
public sealed record ServerBenchmarkRun
{
    /// <summary>
    /// The tier the server acknowledges writes at: a tool whose server holds it (Redis) is given that server; a session
    /// setting (PostgreSQL) is set by the tool. Default: <see cref="Durability.Buffered"/>.
    /// </summary>
    public Durability Durability { get; init; } = Durability.Buffered;

    /// <summary>Bytes of every value written and read. Required.</summary>
    public required int ValueBytes { get; init; }

    /// <summary>Connections the tool drives at once, each waiting for its answer before the next request (no pipelining). Required.</summary>
    public required int Clients { get; init; }

    /// <summary>Keys loaded before the run; writes and reads pick among them uniformly. Required.</summary>
    public required long Records { get; init; }

    /// <summary>How long a tool that stops after a time (pgbench) runs each of its writes and reads, rounded up to whole seconds. Default: 1 s.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How many requests a tool that stops after a count (redis-benchmark) sends for each of its writes and reads. Default: 10,000.</summary>
    public long Requests { get; init; } = 10_000;

    /// <summary>The whole seconds a time-bound tool runs: <see cref="Duration"/> rounded up.</summary>
    internal int WholeSeconds => (int)Math.Ceiling(Duration.TotalSeconds);

    /// <exception cref="ArgumentOutOfRangeException">A count or the duration is not positive.</exception>
    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ValueBytes);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Clients);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Records);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Requests);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(Duration, TimeSpan.Zero);
    }
}

/// <summary>What a server's own benchmark measured.</summary>
/// <param name="Commands">The tool's command lines, as run.</param>
/// <param name="PutsPerSecond">Writes of a new value to an existing key per second, all clients together.</param>
/// <param name="GetsPerSecond">Reads of an existing key per second, all clients together.</param>
public sealed record ServerBenchmarkResult(IReadOnlyList<string> Commands, double PutsPerSecond, double GetsPerSecond);
