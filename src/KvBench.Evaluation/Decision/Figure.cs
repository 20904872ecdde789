using KvBench.Evaluation.Measuring;

namespace KvBench.Evaluation.Decision;

/// <summary>
/// One measured figure of one option for one driver: its value, the interval the measurement supports, and where in the
/// record its evidence is. A figure that could not be measured carries the reason instead of a value.
/// </summary>
/// <param name="Value">The figure: the median of the rounds, or the one measurement; in the driver's base unit.</param>
/// <param name="Low">The interval's low end (see <see cref="FromRounds"/>).</param>
/// <param name="High">The interval's high end (see <see cref="FromRounds"/>).</param>
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

    /// <summary>
    /// Whether the figure is one round of a measurement that varies from round to round, so how far another run could
    /// land from it is unknown: its verdict is read from its value, but it ranks no option above another.
    /// </summary>
    public bool SpreadUnknown { get; init; }

    /// <summary>Whether a value was measured.</summary>
    public bool IsMeasured => Unmeasured is null;

    /// <summary>A figure measured once: its interval is the value itself.</summary>
    public static Figure Once(double value, string evidence) => new(value, value, value, 1, evidence);

    /// <summary>
    /// A figure from rounds of a measurement that varies: the median, in the interval where a further round is expected
    /// 95% of the time (<see cref="PredictionInterval"/>).
    /// </summary>
    /// <remarks>
    /// The least to the most of a few rounds is where a further round lands only about as often as not, so two runs of the
    /// same decision each called a different option clear of the other. The decision asks what another run would measure,
    /// and the prediction interval answers that; with one round nothing says how far another would land
    /// (<see cref="SpreadUnknown"/>).
    /// </remarks>
    public static Figure FromRounds(IReadOnlyList<double> rounds, string evidence)
    {
        ArgumentNullException.ThrowIfNull(rounds);
        if (rounds.Count == 0)
        {
            throw new ArgumentException("A figure needs at least one round.", nameof(rounds));
        }

        (double median, double low, double high) = PredictionInterval.Of(rounds);
        return new(median, low, high, rounds.Count, evidence) { SpreadUnknown = rounds.Count == 1 };
    }

    /// <summary>No figure, for <paramref name="reason"/>.</summary>
    public static Figure Missing(string reason, string evidence) => new(double.NaN, double.NaN, double.NaN, 0, evidence) { Unmeasured = reason };
}
