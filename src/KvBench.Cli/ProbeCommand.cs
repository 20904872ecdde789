using System.CommandLine;

using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Stores;

namespace KvBench.Cli;

/// <summary>
/// <c>probe</c>: one capability probe on one row, as often as asked, each run printed as the ADR cell it would give, so a
/// reader can check that a cell does not depend on luck.
/// </summary>
internal static class ProbeCommand
{
    private static readonly IReadOnlyDictionary<string, Func<StoreRow, string, ProbeSettings, string>> s_probes =
        new Dictionary<string, Func<StoreRow, string, ProbeSettings, string>>(StringComparer.OrdinalIgnoreCase)
        {
            ["scan"] = (row, directory, settings) => CapabilityCells.Scan(PrefixScanProbe.Measure(row.Open, directory, settings)),
            ["growth"] = (row, directory, settings) =>
                CapabilityCells.Growth(CapabilityProbes.Growth(row.Open, directory, settings.GrowthInitialBytes, settings.GrowthFactor, row.WithInitialSize)),
        };

    public static Command Create()
    {
        var probe = new Argument<string>("probe") { Description = $"Which probe: {string.Join(", ", s_probes.Keys)}." };
        probe.AcceptOnlyFromAmong([.. s_probes.Keys]);
        Option<int> repeats = new Option<int>("--repeats", "-r")
        {
            Description = "How many times to run it.",
            DefaultValueFactory = static _ => 1,
            HelpName = "count",
        }.AtLeast(1);
        var quick = new Option<bool>("--quick") { Description = "The settings of `kvbench adr --quick`." };
        var full = new Option<bool>("--full") { Description = "The settings of `kvbench adr --full` (growth: past 4 GiB where the disk allows)." };
        Option<DirectoryInfo?> workDirectory = WorkloadCommands.WorkDirectory("Scratch directory for the probe's stores");
        var command = new Command("probe", "Runs one capability probe on one store, --repeats times, printing each run's ADR cell.")
        {
            probe, StoreArguments.Store, repeats, quick, full, workDirectory,
        };
        StoreArguments.SetGuardedAction(command, parseResult =>
        {
            string name = StoreArguments.CanonicalName(parseResult.GetRequiredValue(StoreArguments.Store));
            string which = parseResult.GetRequiredValue(probe);
            ProbeSettings settings = parseResult.GetValue(quick)
                ? ProbeSettings.Quick
                : parseResult.GetValue(full) ? ProbeSettings.Full : ProbeSettings.Default;
            string scratch = parseResult.GetValue(workDirectory)?.FullName ?? Path.Combine(Path.GetTempPath(), "kvbench-probe-" + Guid.NewGuid().ToString("N"));
            int runs = parseResult.GetValue(repeats);
            try
            {
                for (int run = 1; run <= runs; run++)
                {
                    string cell = s_probes[which](StoreCatalog.Row(name), Path.Combine(
                        scratch,
                        run.ToString(System.Globalization.CultureInfo.InvariantCulture)), settings);
                    parseResult.InvocationConfiguration.Output.WriteLine($"{name} {which} {run}/{runs}: {cell}");
                }
            }
            finally
            {
                if (parseResult.GetValue(workDirectory) is null && Directory.Exists(scratch))
                {
                    Directory.Delete(scratch, recursive: true);
                }
            }

            return ExitCodes.Ok;
        });
        return command;
    }
}
