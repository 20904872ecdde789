using KvBench.Core;
using KvBench.Evaluation.Probes;
using KvBench.Evaluation.Reports;
using KvBench.Evaluation.Reports.Sections;
using KvBench.Evaluation.Reports.Sections.Capabilities;
using KvBench.Stores;
using KvBench.Stores.FileSystem;
using KvBench.Stores.Lmdb;
using KvBench.Stores.Memory;
using KvBench.Tests.Evaluation.MultiProcess;
using KvBench.Tests.Stores.Conformance;


namespace KvBench.Tests.Evaluation.Probes;

/// <summary>Every adapter's claims, measured: a claim the probes contradict fails here.</summary>
[Trait("Category", "Probes")]
[Collection(MultiProcessCollection.Name)]
public sealed class ProbeTests(MeasuredRows rows)
{
    private static readonly ProbeSettings s_testSettings = MeasuredRows.Settings;

    /// <summary>
    /// For a whole measurement read only for its key sentence: the scan's verdict is not asserted there, and FileSystem's
    /// full sizes are the slowest load of the probes.
    /// </summary>
    private static readonly ProbeSettings s_keyOnlySettings = s_testSettings with { ScanStoreSizes = [100, 400], ScanRounds = 1 };

    [Theory]
    [MemberData(nameof(Rows.Available), MemberType = typeof(Rows))]
    public void Every_declared_capability_agrees_with_its_probe(string name)
    {
        StoreMeasurement measurement = rows.Measure(name);

        Assert.Empty(measurement.Disagreements());
        Assert.True(measurement.Throughput.ReadsPerSecond > 0);
        Assert.True(measurement.Throughput.WritesPerSecond > 0);
    }

    [Fact]
    public void The_growth_probe_starts_a_store_that_preallocates_at_its_start_size_and_says_the_others_started_empty()
    {
        using var directory = new TempDirectory();
        const long Start = 1024 * 1024;
        StoreRow lmdb = StoreCatalog.Row(LmdbRow.RowName);
        StoreRow memory = StoreCatalog.Row(MemoryRow.RowName);

        GrowthMeasurement mapped = CapabilityProbes.Growth(lmdb.Open, directory.Combine("lmdb"), Start, factor: 4, lmdb.WithInitialSize);
        GrowthMeasurement empty = CapabilityProbes.Growth(memory.Open, directory.Combine("memory"), Start, factor: 4, memory.WithInitialSize);

        Assert.True(mapped.Grew && mapped.OpenedAtInitialSize, CapabilityCells.Growth(mapped));
        Assert.Equal("Yes (4 MiB written after a 1 MiB start, no reopen)", CapabilityCells.Growth(mapped));
        Assert.True(empty.Grew && !empty.OpenedAtInitialSize, CapabilityCells.Growth(empty));
        Assert.Equal("Yes (4 MiB written from empty, no reopen)", CapabilityCells.Growth(empty));
    }

    [Fact]
    public void A_write_the_store_acknowledged_and_dropped_fails_the_throughput_probe()
    {
        using var directory = new TempDirectory();
        StoreRow memory = StoreCatalog.Row(MemoryRow.RowName);

        InvalidDataException error = Assert.Throws<InvalidDataException>(() =>
            CapabilityProbes.Throughput(
                options => new ForgetfulStore(memory.Open(options), every: 7),
                directory.Path,
                records: 500,
                TimeSpan.FromMilliseconds(50)));

        Assert.Contains(MemoryRow.RowName, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_key_limit_claimed_too_high_is_caught_by_the_key_probe()
    {
        using var directory = new TempDirectory();
        StoreCapabilities truth = StoreCatalog.DeclaredCapabilities(FileSystemRow.RowName);
        StoreCapabilities claimed = truth with { MaxKeyBytes = truth.MaxKeyBytes * 4 };

        SizeMeasurement key = CapabilityProbes.LargestKey(Open(FileSystemRow.RowName, claimed), directory.Path, s_testSettings.KeySearchLimitBytes);
        StoreMeasurement measurement = StoreProbe.Measure(
            FileSystemRow.RowName, claimed, Open(FileSystemRow.RowName, claimed), s_keyOnlySettings,
            directory.Combine("all"));

        Assert.Equal(truth.MaxKeyBytes, key.LargestAcceptedBytes);
        Assert.False(key.Agrees(claimed.MaxKeyBytes));
        Assert.Contains(measurement.Disagreements(), sentence => sentence.Contains("declares keys up to", StringComparison.Ordinal));
    }

    /// <summary>
    /// The scan probe times scans and never reads what a store claims, so the row's own measurement is what a store
    /// claiming an ordered scan would get, and loading FileSystem's scan stores again is the slowest part of the probes.
    /// </summary>
    [Fact]
    public void An_ordered_scan_claimed_by_a_store_that_scans_everything_is_caught_by_the_scan_probe()
    {
        StoreMeasurement measured = rows.Measure(FileSystemRow.RowName);
        StoreCapabilities claimed = measured.Declared with { OrderedPrefixScan = true };
        ScanMeasurement scan = measured.Scan;

        Assert.True(
            scan.Verdict == ScanVerdict.FullScan,
            $"A scan over {scan.SizeRatio}x the files took {scan.TimeRatio:0.0}x as long (growth exponent {scan.Exponent:0.00}).");
        Assert.Contains((measured with { Declared = claimed }).Disagreements(), sentence =>
            sentence.Contains("declares OrderedPrefixScan=True", StringComparison.Ordinal));
    }

    [Fact]
    public void A_durability_tier_claimed_by_the_memory_floor_is_caught_by_the_reopen_probe()
    {
        using var directory = new TempDirectory();
        StoreCapabilities claimed = StoreCatalog.DeclaredCapabilities(MemoryRow.RowName) with { Durability = DurabilityTiers.Buffered };

        DurabilityTiers survived = CapabilityProbes.SurvivesReopen(Open(MemoryRow.RowName, claimed), directory.Path);

        Assert.Equal(DurabilityTiers.None, survived);
    }

    [Theory]
    [InlineData(1_000, 1_000)]
    [InlineData(511, 511)]
    [InlineData(0, 0)]
    [InlineData(5_000, 4_096)]
    public void LargestAccepted_finds_the_boundary_exactly_or_stops_at_the_search_limit(int boundary, int expected) =>
        Assert.Equal(
            expected,
            CapabilityProbes.LargestAccepted(4_096, claimed: null, RefusedPast(boundary)).LargestAcceptedBytes);

    [Theory]
    [InlineData(1_000, 1_000, 2)]
    [InlineData(5_000, 4_096, 1)]
    public void A_claim_that_holds_pins_the_boundary_in_the_tries_it_needs(int boundary, int claimed, int tries)
    {
        int tried = 0;
        int found = CapabilityProbes.LargestAccepted(4_096, claimed, length => ++tried > 0 && length <= boundary).LargestAcceptedBytes;

        Assert.Equal(Math.Min(boundary, 4_096), found);
        Assert.Equal(tries, tried);
    }

    [Theory]
    [InlineData(1_000, 999)]
    [InlineData(1_000, 1_001)]
    [InlineData(1_000, 100_000)]
    [InlineData(0, 511)]
    public void A_claim_that_does_not_hold_is_disproved_and_the_boundary_searched(int boundary, int claimed) =>
        Assert.Equal(
            boundary,
            CapabilityProbes.LargestAccepted(4_096, claimed, RefusedPast(boundary)).LargestAcceptedBytes);

    [Fact]
    public void An_error_that_is_not_a_refusal_is_tried_again_before_it_counts_against_the_claim()
    {
        var failures = new Dictionary<int, int> { [934] = LengthTrial.Attempts - 1 };
        SizeMeasurement size = CapabilityProbes.LargestAccepted(4_096, claimed: 934, FailsThenAnswers(failures, boundary: 934), TimeSpan.Zero);

        Assert.Equal(934, size.LargestAcceptedBytes);
        Assert.Null(size.Error);
    }

    [Fact]
    public void An_error_on_every_try_counts_as_a_refusal_and_the_measurement_names_it()
    {
        var failures = new Dictionary<int, int> { [934] = int.MaxValue };
        SizeMeasurement size = CapabilityProbes.LargestAccepted(4_096, claimed: 934, FailsThenAnswers(failures, boundary: 934), TimeSpan.Zero);

        Assert.Equal(933, size.LargestAcceptedBytes);
        Assert.Contains("934 bytes: IOException: the leader is gone", size.Describe(), StringComparison.Ordinal);
    }

    /// <summary>Accepts lengths up to <paramref name="boundary"/> and refuses longer ones as a store's size check does.</summary>
    private static Func<int, bool> RefusedPast(int boundary) => length => length <= boundary ? true : throw new ArgumentException("too long");

    /// <summary>Accepts lengths up to <paramref name="boundary"/>, after throwing the number of times <paramref name="failures"/> gives a length.</summary>
    private static Func<int, bool> FailsThenAnswers(Dictionary<int, int> failures, int boundary) => length =>
    {
        if (failures.TryGetValue(length, out int left) && left > 0)
        {
            failures[length] = left - 1;
            throw new IOException("the leader is gone");
        }

        return length <= boundary;
    };

    [Fact]
    public void The_ADR_table_has_a_measured_row_for_every_store()
    {
        using var directory = new TempDirectory();
        var report = new AdrReport
        {
            Sections =
            [
                new CapabilitiesSection(s_testSettings)
                {
                    Measurements = [.. StoreCatalog.AvailableNames.Select(rows.Measure)],
                    Unavailable = [
                        .. StoreCatalog.Names.Except(StoreCatalog.AvailableNames).Select(name =>
                            KeyValuePair.Create(name, StoreCatalog.UnavailableReason(name)!))],
                },
            ],
            Machine = MachineInfo.Collect(directory.Path),
            Command = "kvbench adr --output adr.md",
            GeneratedAt = DateTimeOffset.UtcNow,
        };

        string markdown = report.ToMarkdown();
        string[] tableLines = [.. markdown
            .Split('\n')
            .SkipWhile(line => !line.StartsWith("Option | Arbitrary Sized Keys", StringComparison.Ordinal))
            .Skip(2)
            .TakeWhile(line => line.Contains(" | ", StringComparison.Ordinal))];

        Assert.Equal(StoreCatalog.Names.Order(StringComparer.Ordinal), tableLines.Select(line => line.Split(" | ")[0]).Order(StringComparer.Ordinal));
        foreach (string line in tableLines.Where(line => StoreCatalog.UnavailableReason(line.Split(" | ")[0]) is null))
        {
            string[] cells = line.TrimEnd(' ', '|').Split(" | ");
            Assert.Equal(7, cells.Length);
            Assert.All(cells, cell =>
                Assert.False(
                    string.IsNullOrWhiteSpace(cell) || cell == "-" || cell.StartsWith("Not measured", StringComparison.Ordinal),
                    $"Unmeasured cell in '{line}'."));
            Assert.Matches(@"^[\d,]+ reads / [\d,]+ writes( \(writes held in memory until Flush\))?$", cells[6]);
        }
    }

    private static Func<StoreOptions, IKeyValueStore> Open(string name, StoreCapabilities claimed) =>
        options => new MisdeclaredStore(StoreCatalog.Open(name, options), claimed);
}
