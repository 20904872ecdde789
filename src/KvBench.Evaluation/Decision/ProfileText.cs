using System.Globalization;

using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.Decision;

/// <summary>A profile in words, for the decision record and the console.</summary>
public static class ProfileText
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>"100,000 records, keys 16 B (random), values 80% 200 B, 20% 40 KiB; 50% Read, 50% Update; zipfian (0.99); 1 thread in one process; as fast as it goes; Buffered".</summary>
    public static string Workload(ProfileWorkload workload)
    {
        ArgumentNullException.ThrowIfNull(workload);
        string popularity = workload.Popularity == KeyDistribution.Zipfian
            ? string.Create(s_numbers, $"zipfian popularity (constant {workload.ZipfianConstant:0.###})")
            : $"{workload.Popularity.ToString().ToLowerInvariant()} popularity";
        string scans = workload.Mix.Scan > 0 ? string.Create(s_numbers, $" (scans of up to {workload.ScanLength:N0} records)") : string.Empty;
        string processes = workload.ReaderProcesses == 0
            ? "in one process"
            : string.Create(s_numbers, $"in a writer process beside {workload.ReaderProcesses} reader process{(workload.ReaderProcesses == 1 ? string.Empty : "es")}");
        string rate = workload.Rate is { } ops ? string.Create(s_numbers, $"{ops:N0} operations a second (open loop)") : "as fast as the store goes";
        return string.Create(
            s_numbers,
            $"{workload.Records:N0} records, keys {workload.KeyBytes} ({workload.KeyShape}), values {workload.ValueBytes}; {workload.Mix}{scans}; {popularity}; {workload.Threads} thread{(workload.Threads == 1 ? string.Empty : "s")} {processes}; {rate}; {workload.Durability} durability");
    }
}
