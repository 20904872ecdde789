using System.Text.Json.Nodes;

namespace KvBench.Evaluation.Reports.Results;

/// <summary>One section of a results file: its name, as <c>kvbench adr --sections</c> takes it, and its state.</summary>
/// <param name="Name">The section's name (<see cref="Sections.AdrSection.Name"/>).</param>
/// <param name="State">
/// Each of the section's <see cref="InResultsFileAttribute"/> properties by name: what it measured and the settings and
/// facts its tables print.
/// </param>
public sealed record SectionResults(string Name, JsonObject State);
