using System.Globalization;

using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>A profile in words, for the decision record and <c>kvbench profile check</c>.</summary>
public static class ProfileDescription
{
    /// <summary>
    /// The workload in one line: "100,000 records, keys 16 B (random), values 80% 200 B, 20% 40 KiB; 50% get, 50%
    /// update; zipfian (0.99); 1 thread; one process; as fast as it goes; Buffered".
    /// </summary>
    public static string Workload(ProfileWorkload workload)
    {
        ArgumentNullException.ThrowIfNull(workload);
        string records = string.Create(CultureInfo.InvariantCulture, $"{workload.Records:N0} record{(workload.Records == 1 ? string.Empty : "s")}");
        string keys = $"keys {workload.KeyBytes} ({workload.KeyShape})";
        string values = $"values {workload.ValueBytes}";
        string mix = Mix(workload.Mix);
        if (workload.Mix.Scan > 0)
        {
            mix += string.Create(CultureInfo.InvariantCulture, $" (scans of up to {workload.ScanLength:N0} records)");
        }

        string popularity = workload.Popularity switch
        {
            KeyDistribution.Zipfian => string.Create(CultureInfo.InvariantCulture, $"zipfian ({workload.ZipfianConstant:0.###})"),
            KeyDistribution.Latest => "latest",
            _ => "uniform",
        };
        string threads = string.Create(CultureInfo.InvariantCulture, $"{workload.Threads} thread{(workload.Threads == 1 ? string.Empty : "s")}");
        string processes = workload.ReaderProcesses switch
        {
            0 => "one process",
            1 => "a writer process beside 1 reader process",
            int readers => string.Create(CultureInfo.InvariantCulture, $"a writer process beside {readers} reader processes"),
        };
        string rate = workload.Rate is { } perSecond ? ProfileUnits.Rate(perSecond) + " (open loop)" : "as fast as it goes";
        return $"{records}, {keys}, {values}; {mix}; {popularity}; {threads}; {processes}; {rate}; {workload.Durability}";
    }

    /// <summary>"50% get, 30% update, 20% scan": the shares of the operations above 0, in the profile's names.</summary>
    public static string Mix(OperationMix mix)
    {
        ArgumentNullException.ThrowIfNull(mix);
        double total = ProfileReader.Operations.Sum(operation => mix.Of(operation.Type));
        return string.Join(", ", ProfileReader.Operations
            .Where(operation => mix.Of(operation.Type) > 0)
            .Select(operation => string.Create(CultureInfo.InvariantCulture, $"{mix.Of(operation.Type) / total:0.#%} {operation.Name}")));
    }

    /// <summary>The threshold with its bound, in the quantity's unit: "≤ 2 ms", "≥ 50,000 ops/s", "≥ 100%"; empty for a yes-or-no capability.</summary>
    public static string Threshold(Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        if (driver.Quantity == DriverQuantity.Capability && driver.Capability is not (CapabilityCell.KeyBytes or CapabilityCell.ValueBytes))
        {
            return string.Empty;
        }

        string value = driver.Quantity switch
        {
            DriverQuantity.Throughput => ProfileUnits.Rate(driver.Threshold),
            DriverQuantity.Latency or DriverQuantity.VisibilityLag or DriverQuantity.CpuPerOperation => ProfileUnits.Duration(driver.Threshold),
            DriverQuantity.CrashKept or DriverQuantity.PowerLossKept => ProfileUnits.Share(driver.Threshold),
            _ => ProfileUnits.Size(driver.Threshold),
        };
        return (driver.Bound == Bound.AtLeast ? "≥ " : "≤ ") + value;
    }

    /// <summary>
    /// What a driver measures and the threshold it sets, the name a driver gets when the profile gives none: "p99 get
    /// latency while a writer process imports ≤ 2 ms".
    /// </summary>
    public static string DefaultName(Driver driver)
    {
        ArgumentNullException.ThrowIfNull(driver);
        string what = driver.Quantity switch
        {
            DriverQuantity.Capability => driver.Capability switch
            {
                CapabilityCell.KeyBytes => "longest key",
                CapabilityCell.ValueBytes => "longest value",
                CapabilityCell.Growth => "grows without a reopen",
                CapabilityCell.MultiProcessWriters => "two processes write at once",
                _ => "ordered prefix scans",
            },
            DriverQuantity.Throughput => "throughput at the workload",
            DriverQuantity.Latency =>
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"p{driver.Percentile:0.###} {ProfileReader.NameOf(driver.Operation ?? OperationType.Read)} latency")
                + (driver.WhileWriting ? " while a writer process imports" : string.Empty),
            DriverQuantity.VisibilityLag => "p99 visibility lag between processes",
            DriverQuantity.CrashKept => "acknowledged writes kept after a crash",
            DriverQuantity.PowerLossKept => "acknowledged writes kept after a power cut",
            DriverQuantity.DiskBytesPerRecord => "disk bytes per record",
            DriverQuantity.AllocatedBytesPerOperation => "allocated bytes per operation",
            _ => "CPU time per operation",
        };
        string threshold = Threshold(driver);
        return threshold.Length == 0 ? what : $"{what} {threshold}";
    }

    /// <summary>
    /// The profile in one line: its title, workload, drivers and candidates, as <c>kvbench profile check</c> prints it.
    /// </summary>
    public static string Summary(DecisionProfile profile)
    {
        ArgumentNullException.ThrowIfNull(profile);
        int must = profile.Drivers.Count(driver => driver.Must);
        int weighted = profile.Drivers.Count - must;
        string drivers = string.Create(
            CultureInfo.InvariantCulture,
            $"{profile.Drivers.Count} driver{(profile.Drivers.Count == 1 ? string.Empty : "s")} ({must} must, {weighted} weighted)");
        string candidates = profile.Candidates is { } names ? "candidates " + string.Join(", ", names) : "candidates: every embedded row available here";
        return $"\"{profile.Title}\": {Workload(profile.Workload)}; {drivers}; {candidates}";
    }
}
