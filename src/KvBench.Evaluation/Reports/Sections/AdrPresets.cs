using KvBench.Evaluation.Probes;

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

    /// <summary>
    /// The probes' settings for <paramref name="preset"/>; the crash, power-loss and server-kill rounds take their count
    /// from them too, so every row of the survival table has the same number of rounds.
    /// </summary>
    public static ProbeSettings ProbeSettings(this AdrPreset preset) =>
        preset.Choose(quick: Probes.ProbeSettings.Quick, evaluation: Probes.ProbeSettings.Default, full: Probes.ProbeSettings.Full);
}
