using System.Globalization;

namespace KvBench.Evaluation.Decision;

/// <summary>How one option fared against one driver.</summary>
/// <param name="Driver">The driver.</param>
/// <param name="Figure">The option's figure for it.</param>
/// <param name="Verdict">Met, missed, undecided or unmeasured.</param>
public sealed record DriverVerdict(Driver Driver, Figure Figure, Verdict Verdict);

/// <summary>One option's standing: its verdicts, whether a must-driver put it out, and its weighted score.</summary>
/// <param name="Option">The row's name.</param>
/// <param name="Verdicts">One per driver, in the profile's order.</param>
/// <param name="Score">The weighted score's interval (see <see cref="DecisionOutcome"/>); all zero when the profile weighs nothing.</param>
public sealed record OptionStanding(string Option, IReadOnlyList<DriverVerdict> Verdicts, ScoreInterval Score)
{
    /// <summary>The must-drivers this option missed or could not be measured on: any of them puts it out.</summary>
    public IReadOnlyList<DriverVerdict> Failed =>
        [.. Verdicts.Where(verdict => verdict.Driver.Must && verdict.Verdict is Verdict.Missed or Verdict.Unmeasured)];

    /// <summary>The must-drivers whose interval straddles the threshold: the option stays in, marked.</summary>
    public IReadOnlyList<DriverVerdict> Undecided =>
        [.. Verdicts.Where(verdict => verdict.Driver.Must && verdict.Verdict == Verdict.Undecided)];

    /// <summary>Whether every must-driver was met or undecided.</summary>
    public bool IsIn => Failed.Count == 0;
}

/// <summary>A weighted score: the score from every figure's low end, its value, and its high end.</summary>
/// <param name="Low">The least the score can be within the figures' intervals.</param>
/// <param name="Value">The score at the figures' values.</param>
/// <param name="High">The most the score can be within the figures' intervals.</param>
public readonly record struct ScoreInterval(double Low, double Value, double High)
{
    /// <summary>Whether the two intervals share any score.</summary>
    public bool Overlaps(ScoreInterval other) => Low <= other.High && other.Low <= High;
}

/// <summary>
/// The outcome generated from an option's figures, with nothing typed by hand: options that fail a must-driver are
/// out; the rest are ranked by the weighted drivers; the leader is chosen unless another option's score interval
/// overlaps its own, and then the leaders are named as a tie. A close call is a tie, never a coin flip.
/// </summary>
/// <remarks>
/// An option's score on a weighted driver is log2 of its figure over the threshold (threshold over figure for a
/// driver where less is better), clamped to ±3: at the threshold it scores 0, at twice the threshold 1, at eight times
/// or more 3, so one driver far beyond what the team needs cannot outweigh the others. A yes-or-no driver scores 3 or
/// −3. The scores are averaged by weight. A figure bounded by KvBench itself (<see cref="Figure.LimitedBy"/>) is a
/// floor of the store's own, so its score reaches up to the clamp: two such options always overlap on it. A figure of
/// one round of a measurement that varies (<see cref="Figure.SpreadUnknown"/>) reaches both ends of the scale.
/// </remarks>
public sealed class DecisionOutcome
{
    private const double Clamp = 3;

    private DecisionOutcome(IReadOnlyList<Driver> drivers, IReadOnlyList<OptionStanding> standings)
    {
        Drivers = drivers;
        Standings = standings;
        Ranked = [.. standings
            .Where(standing => standing.IsIn)
            .OrderByDescending(standing => standing.Score.Value)
            .ThenBy(standing => standing.Option, StringComparer.Ordinal)];
        Leaders = Ranked.Count == 0 ? [] : [.. Ranked.Where(standing => standing.Score.Overlaps(Ranked[0].Score))];
    }

    /// <summary>The drivers, in the profile's order.</summary>
    public IReadOnlyList<Driver> Drivers { get; }

    /// <summary>Every option, in the order considered.</summary>
    public IReadOnlyList<OptionStanding> Standings { get; }

    /// <summary>The options in, best score first.</summary>
    public IReadOnlyList<OptionStanding> Ranked { get; }

    /// <summary>The chosen option alone, or every option tied with the leader; empty when no option meets every must-driver.</summary>
    public IReadOnlyList<OptionStanding> Leaders { get; }

    /// <summary>The chosen option, or <see langword="null"/> for a tie or when none is in.</summary>
    public string? Chosen => Leaders.Count == 1 ? Leaders[0].Option : null;

    /// <summary>Whether the leaders are tied.</summary>
    public bool IsTie => Leaders.Count > 1;

    /// <summary>"Sqlite_WAL", "a tie between LMDB and RocksDB", or "no option".</summary>
    public string Summary => Leaders.Count switch
    {
        0 => "no option",
        1 => Leaders[0].Option,
        _ => $"a tie between {Join(Leaders.Select(leader => leader.Option))}",
    };

    /// <summary>The outcome of <paramref name="options"/>' figures against <paramref name="drivers"/>.</summary>
    public static DecisionOutcome Decide(IReadOnlyList<Driver> drivers, IReadOnlyList<OptionFigures> options)
    {
        ArgumentNullException.ThrowIfNull(drivers);
        ArgumentNullException.ThrowIfNull(options);
        List<OptionStanding> standings = [];
        foreach (OptionFigures option in options)
        {
            if (option.Figures.Count != drivers.Count)
            {
                throw new ArgumentException($"{option.Option} has {option.Figures.Count} figures for {drivers.Count} drivers.", nameof(options));
            }

            DriverVerdict[] verdicts = [.. drivers.Select((driver, i) => new DriverVerdict(driver, option.Figures[i], Judge(driver, option.Figures[i])))];
            standings.Add(new OptionStanding(option.Option, verdicts, Score(verdicts)));
        }

        return new DecisionOutcome(drivers, standings);
    }

    /// <summary>The verdict of <paramref name="figure"/> against <paramref name="driver"/>'s threshold, over its whole interval.</summary>
    public static Verdict Judge(Driver driver, Figure figure)
    {
        ArgumentNullException.ThrowIfNull(driver);
        ArgumentNullException.ThrowIfNull(figure);
        if (!figure.IsMeasured)
        {
            return Verdict.Unmeasured;
        }

        bool lowMeets = Meets(driver, figure.Low);
        bool highMeets = Meets(driver, figure.High) || (figure.LimitedBy is not null && driver.Bound == Bound.AtLeast);
        return (lowMeets, highMeets) switch
        {
            (true, true) => Verdict.Met,
            (false, false) => Verdict.Missed,
            _ => Verdict.Undecided,
        };
    }

    /// <summary>The same figures against drivers changed by <paramref name="change"/>: for what would change the decision.</summary>
    public DecisionOutcome With(Func<Driver, Driver> change)
    {
        ArgumentNullException.ThrowIfNull(change);
        Driver[] drivers = [.. Drivers.Select(change)];
        return Decide(drivers, [.. Standings.Select(standing => new OptionFigures(standing.Option, [.. standing.Verdicts.Select(verdict => verdict.Figure)]))]);
    }

    /// <summary>Whether <paramref name="other"/> names the same leaders.</summary>
    public bool SameLeaders(DecisionOutcome other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return Leaders
            .Select(leader => leader.Option)
            .Order(StringComparer.Ordinal)
            .SequenceEqual(other.Leaders.Select(leader => leader.Option).Order(StringComparer.Ordinal));
    }

    /// <summary>"A, B and C".</summary>
    public static string Join(IEnumerable<string> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        string[] all = [.. items];
        return all.Length <= 1 ? string.Concat(all) : $"{string.Join(", ", all[..^1])} and {all[^1]}";
    }

    private static bool Meets(Driver driver, double value) =>
        driver.Bound == Bound.AtLeast ? value >= driver.Threshold : value <= driver.Threshold;

    private static ScoreInterval Score(IReadOnlyList<DriverVerdict> verdicts)
    {
        DriverVerdict[] weighted = [.. verdicts.Where(verdict => !verdict.Driver.Must && verdict.Driver.Weight > 0)];
        double totalWeight = weighted.Sum(verdict => verdict.Driver.Weight);
        if (totalWeight <= 0)
        {
            return default;
        }

        double low = 0, value = 0, high = 0;
        foreach ((Driver driver, Figure figure, _) in weighted)
        {
            double share = driver.Weight / totalWeight;
            if (!figure.IsMeasured)
            {
                // An unmeasured figure could be anything: it widens the interval both ways and moves the value nowhere.
                low -= share * Clamp;
                high += share * Clamp;
                continue;
            }

            if (figure.SpreadUnknown)
            {
                // Another run could land anywhere: the value counts, the interval reaches both ends of the scale.
                low -= share * Clamp;
                value += share * DriverScore(driver, figure.Value);
                high += share * Clamp;
                continue;
            }

            double a = DriverScore(driver, figure.Low);
            double b = DriverScore(driver, figure.High);
            double top = figure.LimitedBy is not null ? Clamp : Math.Max(a, b);
            low += share * Math.Min(a, b);
            value += share * DriverScore(driver, figure.Value);
            high += share * top;
        }

        return new ScoreInterval(low, value, high);
    }

    /// <summary>log2 of how far <paramref name="value"/> is beyond the threshold, clamped to ±3; yes or no scores ±3.</summary>
    private static double DriverScore(Driver driver, double value)
    {
        if (driver.IsYesNo())
        {
            return Meets(driver, value) ? Clamp : -Clamp;
        }

        double ratio = driver.Bound == Bound.AtLeast
            ? (driver.Threshold > 0 ? value / driver.Threshold : double.PositiveInfinity)
            : (value > 0 ? driver.Threshold / value : double.PositiveInfinity);
        return ratio <= 0 ? -Clamp : Math.Clamp(Math.Log2(ratio), -Clamp, Clamp);
    }

    /// <inheritdoc/>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Summary} ({Ranked.Count} of {Standings.Count} options in)");
}
