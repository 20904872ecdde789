namespace KvBench.Evaluation.Decision;

/// <summary>
/// One measured figure of one option for one driver: its value, the interval the measurement supports, and where in the
/// record its evidence is. A figure that could not be measured carries the reason instead of a value.
/// </summary>
/// <param name="Value">The figure: the median of the rounds, or the one measurement; in the driver's base unit.</param>
/// <param name="Low">The interval's low end: the least any round measured.</param>
/// <param name="High">The interval's high end: the most any round measured.</param>
/// <param name="Samples">How many rounds or measurements the interval rests on.</param>
/// <param name="Evidence">The evidence table the figure comes from, as the record's heading anchor.</param>
public sealed record Figure(double Value, double Low, double High, int Samples, string Evidence)
{
    /// <summary>Why there is no figure, or <see langword="null"/> when there is one.</summary>
    public string? Unmeasured { get; init; }

    /// <summary>
    /// Why the figure is bounded by KvBench itself rather than the store (the workload runner's own cost per
    /// operation), or <see langword="null"/>: such a figure is a floor of the store's own, and never decides between
    /// two options that are both bounded.
    /// </summary>
    public string? LimitedBy { get; init; }

    /// <summary>Whether the measurement was skipped because a must-driver had already put the option out.</summary>
    public bool Skipped { get; init; }

    /// <summary>Whether a value was measured.</summary>
    public bool IsMeasured => Unmeasured is null;

    /// <summary>A figure measured once: its interval is the value itself.</summary>
    public static Figure Once(double value, string evidence) => new(value, value, value, 1, evidence);

    /// <summary>A figure from several rounds: the median, between the least and the most.</summary>
    public static Figure FromRounds(IReadOnlyList<double> rounds, string evidence)
    {
        ArgumentNullException.ThrowIfNull(rounds);
        if (rounds.Count == 0)
        {
            throw new ArgumentException("A figure needs at least one round.", nameof(rounds));
        }

        double[] sorted = [.. rounds.Order()];
        double median = sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
        return new(median, sorted[0], sorted[^1], sorted.Length, evidence);
    }

    /// <summary>No figure, for <paramref name="reason"/>.</summary>
    public static Figure Missing(string reason, string evidence) => new(double.NaN, double.NaN, double.NaN, 0, evidence) { Unmeasured = reason };
}
