namespace KvBench.Evaluation.Reports.Sections;

/// <summary>Turns an <see cref="AdrPreset"/> into a section's own settings.</summary>
public static class AdrPresets
{
    /// <summary>The settings of the three that <paramref name="preset"/> names.</summary>
    /// <param name="preset">The run's preset.</param>
    /// <param name="quick">For <see cref="AdrPreset.Quick"/>.</param>
    /// <param name="evaluation">For <see cref="AdrPreset.Default"/>.</param>
    /// <param name="full">For <see cref="AdrPreset.Full"/>.</param>
    public static T Choose<T>(this AdrPreset preset, T quick, T evaluation, T full) => preset switch
    {
        AdrPreset.Quick => quick,
        AdrPreset.Full => full,
        _ => evaluation,
    };
}
