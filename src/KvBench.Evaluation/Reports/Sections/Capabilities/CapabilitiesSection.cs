using System.Globalization;
using System.Text;

using KvBench.Core;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports.Results;
using KvBench.Stores;


namespace KvBench.Evaluation.Reports.Sections.Capabilities;

/// <summary>
/// The "Considered Options" table of the NexusMods decision record "Use SqlLite as a datastore" with every cell
/// measured, the durability table from the same probes, and at the end of the file the claims they checked: a declared
/// capability a probe contradicted fails the run.
/// </summary>
/// <param name="settings">How hard the probes push.</param>
public sealed class CapabilitiesSection(ProbeSettings settings) : AdrSection<ProbeSettings>(settings)
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The probes' settings for <paramref name="preset"/>.</summary>
    public CapabilitiesSection(AdrPreset preset = AdrPreset.Default)
        : this(preset.ProbeSettings())
    {
    }

    /// <inheritdoc/>
    public override string Name => "capabilities";

    /// <summary>The measured rows, in table order.</summary>
    [InResultsFile]
    public IReadOnlyList<StoreMeasurement> Measurements { get; set; } = [];

    /// <summary>Rows that could not be measured on this machine, with the reason.</summary>
    [InResultsFile]
    public IReadOnlyList<KeyValuePair<string, string>> Unavailable { get; set; } = [];

    /// <summary>The package and native library versions of each row.</summary>
    [InResultsFile]
    public IReadOnlyDictionary<string, string> Engines { get; set; } = new Dictionary<string, string>();

    /// <inheritdoc/>
    public override async Task MeasureAsync(AdrContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var measurements = new List<StoreMeasurement>();
        foreach (string name in StoreCatalog.AvailableNames)
        {
            context.Log($"Probing {name}...");
            string rowDirectory = Path.Combine(context.WorkDirectory, name);
            try
            {
                measurements.Add(
                    await StoreProbe.MeasureAsync(
                        name, Settings, rowDirectory, context.Cli,
                        AdrGenerator.MultiProcessTimeouts).ConfigureAwait(false));
            }
            finally
            {
                AdrContext.TryDelete(rowDirectory);
            }

            context.Took($"Probing {name}");
        }

        Measurements = measurements;
        Unavailable = [.. StoreCatalog.Names
            .Where(name => StoreCatalog.UnavailableReason(name) is not null)
            .Select(name => KeyValuePair.Create(name, StoreCatalog.UnavailableReason(name)!))];
        Engines = StoreCatalog.AvailableNames.ToDictionary(name => name, StoreCatalog.Engine);
    }

    /// <summary>"Claim contradicted: ..." for each declared capability a probe contradicted.</summary>
    public override IReadOnlyList<string> Problems() =>
        [.. Disagreements().Select(disagreement => $"Claim contradicted: {disagreement}")];

    /// <summary>The "Considered Options" table: one row per store, each cell a measurement.</summary>
    public MarkdownTable CapabilityTable()
    {
        var table = new MarkdownTable(
            "Option", "Arbitrary Sized Keys", "Arbitrary Sized Values", "Arbitrary Database Size",
            "Multi-Process Access", "Prefixed Key Scans", "RW/sec");
        foreach (StoreMeasurement row in Measurements)
        {
            table.Add(
                row.Name,
                CapabilityCells.Size(row.Key),
                CapabilityCells.Size(row.Value),
                CapabilityCells.Growth(row.Growth),
                CapabilityCells.MultiProcess(row.MultiProcess),
                CapabilityCells.Scan(row.Scan),
                CapabilityCells.Throughput(row));
        }

        foreach ((string name, _) in Unavailable)
        {
            table.Add(name, "Not available here¹", "-", "-", "-", "-", "-");
        }

        return table;
    }

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        StringBuilder output = markdown.Output;
        output.AppendLine("## Considered Options").AppendLine();
        CapabilityTable().WriteTo(output);
        WriteMethod(output);
        foreach ((string name, string reason) in Unavailable)
        {
            output.AppendLine(s_numbers, $"- ¹ {name}: {reason}");
        }

        output.AppendLine().AppendLine("## " + AdrSections.DurabilityChapter).AppendLine();
        var durability = new MarkdownTable(
            "Option",
            "Tiers whose flushed writes survived a reopen",
            "Tiers declared",
            "Acknowledged, unflushed write after kill -9",
            "Engine");
        foreach (StoreMeasurement row in Measurements)
        {
            string killCell = row.UnflushedWriteSurvivesKill switch
            {
                true => "Survived",
                false => "Lost (durable only at Flush)",
                null => row.Declared.Durability == DurabilityTiers.None ? "Lost (memory only)" : "Not measured",
            };
            durability.Add(
                row.Name,
                CapabilityCells.Tiers(row.SurvivesReopen),
                CapabilityCells.Tiers(row.Declared.Durability),
                killCell,
                Engines.GetValueOrDefault(row.Name, "-"));
        }

        durability.WriteTo(output);
        output.AppendLine(
            "Buffered: an acknowledged write survives the process being killed. Synced: it also survives a power cut " +
                "(the store flushes to the device; power loss itself is not simulated here). A tier a store refuses " +
                "is \"not offered\", never replaced by a weaker one.").AppendLine();
    }

    /// <summary>"Claims checked": every disagreement between a declared capability and its measurement, after every table.</summary>
    public override void WriteClosingTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        StringBuilder output = markdown.Output;
        IReadOnlyList<string> disagreements = Disagreements();
        output.AppendLine("## Claims checked").AppendLine();
        if (disagreements.Count == 0)
        {
            output.AppendLine("Every adapter's declared capabilities agree with the measurements above.").AppendLine();
            return;
        }

        foreach (string disagreement in disagreements)
        {
            output.AppendLine(s_numbers, $"- {disagreement}");
        }

        output.AppendLine();
    }

    private List<string> Disagreements() => [.. Measurements.SelectMany(row => row.Disagreements())];

    /// <summary>How each column was measured, one line per column, with the settings the run used.</summary>
    private void WriteMethod(StringBuilder output)
    {
        static string Bytes(long bytes) => CapabilityCells.Bytes(bytes);
        output.AppendLine(
            s_numbers,
            $"- Keys and values: the longest that was stored and read back byte-exact, searched by doubling then " +
                $"bisection up to {Bytes(Settings.KeySearchLimitBytes)} (keys) and " +
                $"{Bytes(Settings.ValueSearchLimitBytes)} (values); \"Yes\" means the search limit itself " +
                $"round-tripped.");
        string[] preallocating = [.. Measurements.Where(row => row.Growth.OpenedAtInitialSize).Select(row => row.Name)];
        output.AppendLine(
            s_numbers,
            $"- Database size: each row was written {Settings.GrowthFactor:N0}x {Bytes(Settings.GrowthInitialBytes)} " +
                $"({Bytes(Settings.GrowthInitialBytes * Settings.GrowthFactor)}) in 64 KiB values without reopening, " +
                $"then read back; a row whose store preallocates was opened asking for " +
                $"{Bytes(Settings.GrowthInitialBytes)} first (" +
                $"{(preallocating.Length > 0 ? string.Join(", ", preallocating) : "none here")}), the others started " +
                $"empty; where the disk had less than twice that free, as far as it allowed (the cell says so). " +
                $"`--full` grows every row past 4 GiB.");
        output.AppendLine(
            "- Multi-process access: two real processes on one directory; \"One writer + readers\" means a second " +
                "process may open read-only or as a secondary and sees flushed writes.");
        output.AppendLine(
            s_numbers,
            $"- Prefixed key scans: one store grown through " +
                $"{string.Join(", ", Settings.ScanStoreSizes.Select(size => size.ToString("N0", s_numbers)))} " +
                $"records, a scan matching 5 keys timed at each size (median of 7); the growth exponent b of time ∝ " +
                $"records^b fitted to the medians is at most {PrefixScanProbe.IndexedBelow:0.00} for an ordered " +
                $"index and at least {PrefixScanProbe.FullScanAbove:0.00} for a full scan; between the two the probe " +
                $"measures again, up to {Settings.ScanRounds} rounds, then says \"Inconclusive\".");
        output.AppendLine(
            s_numbers,
            $"- RW/sec: one thread, Buffered durability, 9-byte keys and 128-byte values over " +
                $"{Settings.ThroughputRecords:N0} preloaded records, {Settings.ThroughputDuration.TotalSeconds:0.#} " +
                $"s of reads (Get) then {Settings.ThroughputDuration.TotalSeconds:0.#} s of overwrites (Put), each " +
                $"after a fifth of that unmeasured; every record is checked afterwards for the bytes written last.");
    }
}
