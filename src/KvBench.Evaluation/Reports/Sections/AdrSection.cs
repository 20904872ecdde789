namespace KvBench.Evaluation.Reports.Sections;

/// <summary>
/// One part of the ADR file, whole in one class: the settings it runs with, how it measures, the markdown of its
/// tables with the charts placed beside them, and what in its results makes the run exit with 1. A section is listed
/// once, in <see cref="AdrSections"/>; <c>kvbench adr --sections &lt;name&gt;</c> runs it alone.
/// </summary>
public abstract class AdrSection
{
    /// <summary>The name <c>kvbench adr --sections</c> takes: lower case, one word.</summary>
    public abstract string Name { get; }

    /// <summary>
    /// Whether the section runs only when <c>--sections</c> names it: it needs what a plain run on a fresh machine cannot
    /// count on (root and <c>/dev/fuse</c>), or time the default evaluation's budget does not hold. Default: no.
    /// </summary>
    public virtual bool RunsOnlyWhenNamed => false;

    /// <summary>Measures, saying what it starts and how long each step took through <paramref name="context"/>.</summary>
    public abstract Task MeasureAsync(AdrContext context);

    /// <summary>
    /// Writes the section's markdown, nothing when it holds no results. Its charts go through
    /// <see cref="AdrMarkdown.Charts"/>: where a chart is placed is also how the file learns to draw it.
    /// </summary>
    public abstract void WriteTo(AdrMarkdown markdown);

    /// <summary>What the section writes after every section's body and before the machine: a check of the whole run.</summary>
    public virtual void WriteClosingTo(AdrMarkdown markdown)
    {
    }

    /// <summary>What in the results makes the run no result, one line each, starting with what failed.</summary>
    public virtual IReadOnlyList<string> Problems() => [];
}
