namespace KvBench.Evaluation.Comparison;

/// <summary>Which way a cell's figure is better.</summary>
public enum Better
{
    /// <summary>More is better (throughput).</summary>
    Higher,

    /// <summary>Less is better (latency).</summary>
    Lower,
}

/// <summary>
/// One measured figure of a run, as <c>kvbench compare</c> matches it with the same figure of another run: what was
/// measured (<see cref="Run"/>, <see cref="Metric"/>), its median over the run's intervals, and where a further interval's
/// figure is expected 95% of the time (<see cref="Measuring.PredictionInterval"/>), which is the spread the comparison
/// judges a change against.
/// </summary>
/// <remarks>
/// The interval is that of a further interval, not how well the run knows its median: two runs of one commit differ by far
/// more than their intervals' spread says of their medians (a short run's checkpoints, compactions and scheduling land
/// differently each time), so a confidence interval of the median read most cells of two such runs as changed.
/// </remarks>
/// <param name="Run">The row, the workload, its records and its threads: "LMDB / YCSB-A / 100,000 records / 4 threads".</param>
/// <param name="Metric">What the figure is: "throughput" or "p99".</param>
/// <param name="Unit">Its unit: "ops/s" or "µs".</param>
/// <param name="Better">Which way is better.</param>
/// <param name="Value">The median over the run's intervals.</param>
/// <param name="Low">The low end of the interval where a further interval's figure is expected.</param>
/// <param name="High">Its high end.</param>
/// <param name="Samples">The intervals it comes from; 1 when the run kept no timeline, and then its spread is unknown.</param>
public sealed record ResultCell(string Run, string Metric, string Unit, Better Better, double Value, double Low, double High, int Samples)
{
    /// <summary>What identifies the cell across runs.</summary>
    public string Key => $"{Run} / {Metric}";
}

/// <summary>What <c>kvbench compare</c> reads of one results file.</summary>
/// <param name="Cells">Every cell the file holds.</param>
/// <param name="Facts">
/// What the file says of the run that could explain a change, by name ("KvBench", "Machine: Cpu", "Engine of LMDB"):
/// empty for a file of <c>run</c>, <c>ycsb</c> or <c>sweep</c>, which records none.
/// </param>
public sealed record ComparedRun(IReadOnlyList<ResultCell> Cells, IReadOnlyDictionary<string, string> Facts);
