using KvBench.Evaluation.Reports.Results;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>A section that runs with settings of its own, fixed when it is made.</summary>
/// <typeparam name="TSettings">The settings' type.</typeparam>
/// <param name="settings">How the section measures.</param>
public abstract class AdrSection<TSettings>(TSettings settings) : AdrSection
{
    /// <summary>How the section measures.</summary>
    [InResultsFile]
    public TSettings Settings { get; private set; } = settings;
}
