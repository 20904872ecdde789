namespace KvBench.Evaluation.Decision;

/// <summary>What would change a decision: for each driver, the nearest threshold (or weight) at which the leaders change.</summary>
public static class DecisionSensitivity
{
    /// <summary>
    /// One line per driver, in the profile's order, each saying where the outcome changes or that no change within the
    /// figures measured does.
    /// </summary>
    public static IReadOnlyList<string> Describe(DecisionOutcome outcome)
    {
        ArgumentNullException.ThrowIfNull(outcome);
        return [
            .. outcome.Drivers.Select((driver, index) =>
                $"**{driver.Name}** ({driver.Kind()}, {driver.Threshold()}): {ForDriver(outcome, driver, index)}")];
    }

    private static string ForDriver(DecisionOutcome outcome, Driver driver, int index)
    {
        if (driver.IsYesNo())
        {
            DecisionOutcome dropped = outcome.With(other => ReferenceEquals(other, driver) ? other with { Must = false, Weight = driver.Must ? 1 : 0 } : other);
            string change = driver.Must ? "made a weight of 1 instead of a must" : "left out";
            return dropped.SameLeaders(outcome) ? $"{change}, it changes nothing." : $"{change}, the outcome becomes {dropped.Summary}.";
        }

        if (!driver.Must)
        {
            List<string> changes = [];
            foreach ((double factor, string words) in new[] { (0.0, "left out"), (3.0, "weighed three times as much") })
            {
                DecisionOutcome weighed = outcome.With(other => ReferenceEquals(other, driver) ? other with { Weight = driver.Weight * factor } : other);
                if (!weighed.SameLeaders(outcome))
                {
                    changes.Add($"{words}, the outcome becomes {weighed.Summary}");
                }
            }

            return changes.Count == 0 ? "left out or weighed three times as much, it changes nothing." : string.Join("; ", changes) + ".";
        }

        double[] bounds = [.. outcome.Standings.Select(standing => standing.Verdicts[index].Figure).Where(figure => figure.IsMeasured)
            .SelectMany(figure => new[] { figure.Low, figure.High }).Distinct().Order()];
        string? stricter = Nearest(outcome, driver, bounds, stricter: true);
        string? looser = Nearest(outcome, driver, bounds, stricter: false);
        return (stricter, looser) switch
        {
            (null, null) => "no threshold between the figures measured changes the outcome.",
            _ => string.Join("; ", new[] { stricter, looser }.OfType<string>()) + ".",
        };
    }

    /// <summary>
    /// The nearest threshold beyond the current one, stricter or looser, that changes the leaders, described;
    /// <see langword="null"/> when none does.
    /// </summary>
    private static string? Nearest(DecisionOutcome outcome, Driver driver, double[] bounds, bool stricter)
    {
        // Stricter means higher for "at least" and lower for "at most". Each figure bound is tried just past it, where
        // the options whose interval ends there change their verdict.
        bool upward = stricter == (driver.Bound == Bound.AtLeast);
        IEnumerable<double> candidates = upward
            ? bounds.Where(bound => bound >= driver.Threshold).Select(bound => Past(bound, up: true))
            : bounds.Where(bound => bound <= driver.Threshold).Reverse().Select(bound => Past(bound, up: false));
        foreach (double threshold in candidates)
        {
            bool isShare = driver.Quantity is DriverQuantity.CrashKept or DriverQuantity.PowerLossKept;
            if (threshold == driver.Threshold || threshold < 0 || (isShare && threshold > 1))
            {
                continue;
            }

            Driver changed = driver with { Threshold = threshold };
            DecisionOutcome moved = outcome.With(other => ReferenceEquals(other, driver) ? changed : other);
            if (!moved.SameLeaders(outcome))
            {
                return $"{(stricter ? "tightened" : "relaxed")} to {changed.Threshold()}, the outcome becomes {moved.Summary}";
            }
        }

        return null;
    }

    /// <summary>
    /// A threshold just past <paramref name="bound"/>, so the figure that ends there falls on the other side of it:
    /// rounded outwards to three significant figures, the precision a team would write one in. The outcome is judged
    /// again at the rounded threshold, so what the record says of it holds.
    /// </summary>
    private static double Past(double bound, bool up)
    {
        double step = Math.Max(Math.Abs(bound) * 1e-6, 1e-9);
        double past = up ? bound + step : bound - step;
        if (past <= 0)
        {
            return past;
        }

        double scale = Math.Pow(10, Math.Floor(Math.Log10(past)) - 2);
        return (up ? Math.Ceiling(past / scale) : Math.Floor(past / scale)) * scale;
    }
}
