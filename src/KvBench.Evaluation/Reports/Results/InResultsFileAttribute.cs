namespace KvBench.Evaluation.Reports.Results;

/// <summary>
/// Marks a property of a section (<see cref="Sections.AdrSection"/>) that the run's results file holds: a figure it
/// measured, or a setting or fact its tables print. A section's tables and charts read nothing else, so a results file
/// redraws them without measuring again (<see cref="RunResults"/>). The property needs a setter, private at least, that
/// the file is read back through.
/// </summary>
[AttributeUsage(AttributeTargets.Property, Inherited = true)]
public sealed class InResultsFileAttribute : Attribute;
