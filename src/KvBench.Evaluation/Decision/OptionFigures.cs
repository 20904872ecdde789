namespace KvBench.Evaluation.Decision;

/// <summary>One considered option and its figure for each of the profile's drivers, in the profile's order.</summary>
/// <param name="Option">The row's name.</param>
/// <param name="Figures">One figure per driver, in the profile's order.</param>
public sealed record OptionFigures(string Option, IReadOnlyList<Figure> Figures);
