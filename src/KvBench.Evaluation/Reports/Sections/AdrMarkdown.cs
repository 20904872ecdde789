using System.Text;

using KvBench.Evaluation.Reports.Charts;

namespace KvBench.Evaluation.Reports.Sections;

/// <summary>The ADR file as the sections write it: its text, the charts they placed in it, and what every section may cite.</summary>
public sealed class AdrMarkdown
{
    private readonly ChartImages? _images;
    private readonly List<Chart> _charts = [];

    /// <summary>An empty file.</summary>
    /// <param name="images">The PNGs drawn, linked beside their tables; <see langword="null"/> for Mermaid only.</param>
    /// <param name="machine">The machine the run measured.</param>
    /// <param name="command">The command that regenerates the file.</param>
    public AdrMarkdown(ChartImages? images, MachineInfo machine, string command)
    {
        _images = images;
        Machine = machine;
        Command = command;
    }

    /// <summary>The text written so far.</summary>
    public StringBuilder Output { get; } = new();

    /// <summary>The machine the run measured.</summary>
    public MachineInfo Machine { get; }

    /// <summary>The command that regenerates the file (the evaluation, or <c>kvbench adr</c>).</summary>
    public string Command { get; }

    /// <summary>
    /// Every section of the run, measured, so a table that sets several sections' results side by side (what each row
    /// survives) reads them where they are instead of measuring again. Default: none.
    /// </summary>
    public IReadOnlyList<AdrSection> Sections { get; init; } = [];

    /// <summary>Every chart placed so far, in the order of the file.</summary>
    public IReadOnlyList<Chart> ChartsPlaced => _charts;

    /// <summary>
    /// Makes sure what follows stands under the chapter <c>## <paramref name="title"/></c>: writes that heading unless it
    /// is the last chapter written. A section that continues another section's chapter (the crash rounds under the
    /// capabilities' "Durability") calls it, so run alone (<c>kvbench adr --sections</c>) it prints the headings it
    /// stands under in the whole file.
    /// </summary>
    public void Within(string title)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(title);
        string heading = "## " + title;
        string? current = Output.ToString().Split('\n').LastOrDefault(line => line.StartsWith("## ", StringComparison.Ordinal))?.TrimEnd('\r');
        if (current != heading)
        {
            Output.AppendLine(heading).AppendLine();
        }
    }

    /// <summary>
    /// A table's charts: links to the PNGs drawn (or the one line saying why none were), then the Mermaid blocks, folded
    /// away when there are many so the tables stay readable.
    /// </summary>
    public void Charts(IReadOnlyList<Chart> charts, string description)
    {
        ArgumentNullException.ThrowIfNull(charts);
        _charts.AddRange(charts);
        ChartBlocks.Write(Output, _images, charts, description);
    }
}
