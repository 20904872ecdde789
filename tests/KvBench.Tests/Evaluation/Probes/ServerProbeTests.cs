using KvBench.Evaluation.Probes;
using KvBench.Stores;
using KvBench.Tests.Stores.Conformance;
using KvBench.Tests.Stores.Servers;



namespace KvBench.Tests.Evaluation.Probes;

/// <summary>
/// Every server row's claims, measured as <see cref="ProbeTests"/> measures the embedded rows', but the two-process
/// level, which needs servers both processes find (<see cref="ServerLifecycleTests"/> measures it on those
/// <c>kvbench servers up</c> runs). The scan probe decides whether Redis' sorted-set index makes its prefix scans the
/// seeks it claims.
/// </summary>
[Trait("Category", "Servers")]
public sealed class ServerProbeTests(ITestOutputHelper output) : IClassFixture<ServerHostsFixture>
{
    [Theory]
    [MemberData(nameof(Rows.Servers), MemberType = typeof(Rows))]
    public void Every_declared_capability_but_the_two_process_level_agrees_with_its_probe(string name)
    {
        using var directory = new TempDirectory();

        StoreMeasurement measurement = StoreProbe.Measure(
            name,
            StoreCatalog.DeclaredCapabilities(name),
            options => StoreCatalog.Open(name, options),
            MeasuredRows.Settings,
            directory.Path);

        output.WriteLine($"{name}: keys to {measurement.Key.LargestAcceptedBytes:N0} B, values to {measurement.Value.LargestAcceptedBytes:N0} B "
            + $"(searched to {measurement.Value.SearchLimitBytes:N0}), "
            + $"scan {measurement.Scan.Verdict} (exponent {measurement.Scan.Exponent:0.00}), "
            + $"grew {measurement.Growth.Grew}, reopen {measurement.SurvivesReopen}, "
            + $"{measurement.Throughput.ReadsPerSecond:N0} reads/s, {measurement.Throughput.WritesPerSecond:N0} writes/s");
        Assert.Empty(measurement.Disagreements());
    }
}
