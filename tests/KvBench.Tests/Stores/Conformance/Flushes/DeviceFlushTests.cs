using System.Globalization;

using KvBench.Cli;
using KvBench.Core;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Workload;
using KvBench.Stores;
using KvBench.Stores.FileSystem;
using KvBench.Stores.Sqlite;



namespace KvBench.Tests.Stores.Conformance.Flushes;

/// <summary>
/// A row cannot pass off a write it skipped, or a flush it left out, as a measured write: for every row and tier it
/// offers, records are overwritten with changed bytes one Put each by the built CLI under strace, read back after a
/// reopen by another process, and the fsync-family calls per Put are counted: at least one at Synced (the write reached
/// the device before it was acknowledged), far fewer than one at Buffered (only a checkpoint may flush), unless the row
/// declares that it syncs every write whatever the tier (<see cref="StoreCapabilities.SyncsEveryWrite"/>): then at least one there too.
/// </summary>
/// <remarks>
/// The calls are counted for two runs of the same command on the same store, one overwriting <see cref="Puts"/> more
/// records than the other, and subtracted, so what opening, the final Flush and closing cost cancels out (both runs
/// leave unflushed writes behind for the close, which RocksDB flushes with a dozen calls of its own). strace follows every
/// thread of the process; only the fsync family is stopped on (seccomp filter), so the rest of the run goes at full speed.
/// </remarks>
[Trait("Category", "DeviceFlushes")]
public sealed class DeviceFlushTests(ITestOutputHelper output)
{
    /// <summary>Enough Puts that a few flushes of opening or closing do not move the per-Put count, and few enough to stay quick at Synced.</summary>
    internal const int Puts = 200;

    /// <summary>The Puts of the shorter run, whose count is subtracted.</summary>
    private const int BaseRecords = 50;

    /// <summary>At Buffered a checkpoint may flush now and then; one flush per ten Puts would already be a Synced store in disguise.</summary>
    internal const double MostBufferedFlushesPerPut = 0.1;

    internal const string FlushCalls = "fsync,fdatasync,msync,sync_file_range,syncfs,sync";

    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(120);

    [Theory]
    [MemberData(nameof(Rows.OfferedTiers), MemberType = typeof(Rows))]
    public async Task A_changed_put_is_visible_after_reopen_and_flushes_the_device_only_at_Synced(string name, Durability durability)
    {
        Assert.True(File.Exists(Strace), $"strace is not at {Strace}: `apt-get install strace` (the KvBench.Tests build installs it when it runs as root).");
        using var directory = new TempDirectory();
        string[] store = ["--store", name, "--dir", directory.Path, "--durability", durability.ToString(), "--value-bytes", "128"];
        var records = new RecordSet(valueBytes: 128);
        using (IKeyValueStore loaded = StoreCatalog.Open(name, new StoreOptions { Directory = directory.Path, Durability = Durability.Buffered }))
        {
            records.Load(loaded, BaseRecords + Puts);
            loaded.Flush();
        }

        // Version 1 of the first records, then version 2 of those and Puts more: every Put of both runs changes the bytes its key holds.
        long fewer = await CountFlushes(directory, ["load", .. store, "--records", Count(BaseRecords), "--batch", "1", "--value-version", "1"]);
        long more = await CountFlushes(directory, ["load", .. store, "--records", Count(BaseRecords + Puts), "--batch", "1", "--value-version", "2"]);
        CliRunResult reopened = await KvBenchCli.Locate().RunAsync(
            ["verify", .. store, "--records", Count(BaseRecords + Puts), "--value-version", "2"],
            s_timeout);

        double perPut = (double)(more - fewer) / Puts;
        output.WriteLine($"{name} {durability}: {more} flush calls for {BaseRecords + Puts} changed Puts, {fewer} for {BaseRecords}: {perPut:0.00} per Put.");
        Assert.True(reopened.ExitCode == ExitCodes.Ok, $"After a reopen the changed values were not all there: {reopened.Error}");
        if (durability == Durability.Synced || StoreCatalog.DeclaredCapabilities(name).SyncsEveryWrite)
        {
            Assert.True(perPut >= 1, $"{name} acknowledged {durability} Puts with {perPut:0.00} device flushes each, while it declares them Synced.");
        }
        else
        {
            Assert.True(perPut <= MostBufferedFlushesPerPut, $"{name} flushed {perPut:0.00} times per Buffered Put.");
        }
    }

    [Fact]
    public async Task Sqlite_acknowledges_a_synced_rewrite_of_identical_bytes_without_a_flush_which_is_why_every_measured_write_changes_them()
    {
        using var directory = new TempDirectory();
        string[] store = ["--store", SqliteRow.WalName, "--dir", directory.Path, "--durability", "Synced"];

        long changed = await CountFlushes(directory, ["load", .. store, "--records", Count(Puts), "--batch", "1", "--value-version", "1"]);
        long identical = await CountFlushes(directory, ["load", .. store, "--records", Count(Puts), "--batch", "1", "--value-version", "1"]);

        output.WriteLine($"Sqlite_WAL Synced, {Puts} Puts: {changed} flush calls writing changed values, {identical} rewriting the same values.");
        Assert.True(changed >= Puts, $"{changed} flushes for {Puts} changed synced Puts.");
        Assert.True(
            identical < Puts / 10,
            $"SQLite now flushes identical rewrites ({identical} for {Puts}); ValueVersion's remarks and MEASURING.md should say so.");
    }

    [Fact]
    public async Task The_count_sees_a_flush_per_put_where_there_is_one_and_none_where_there_is_none()
    {
        // The counter itself, on a program whose flushes are known: the FileSystem row at Synced fsyncs file and directory.
        using var directory = new TempDirectory();
        string[] store = ["--store", FileSystemRow.RowName, "--dir", directory.Path];

        long synced = await CountFlushes(directory, ["load", .. store, "--durability", "Synced", "--records", "50", "--batch", "1"]);
        long buffered = await CountFlushes(
            directory,
            ["load", .. store, "--durability", "Buffered", "--records", "50", "--batch", "1", "--value-version", "1"]);

        Assert.InRange(synced, 100, 110);
        Assert.InRange(buffered, 0, 5);
    }

    internal static string Strace => "/usr/bin/strace";

    private static string Count(int records) => records.ToString(CultureInfo.InvariantCulture);

    /// <summary>Runs the CLI under strace and returns how many fsync-family calls its process made.</summary>
    private static async Task<long> CountFlushes(TempDirectory directory, string[] arguments)
    {
        string summary = directory.Combine($"strace-{Guid.NewGuid():N}.txt");
        CliRunResult run = await KvBenchCli.Locate().RunUnderAsync(
            Strace,
            ["-f", "--seccomp-bpf", "-qq", "-c", "-e", $"trace={FlushCalls}", "-o", summary],
            arguments,
            s_timeout);
        Assert.True(run.ExitCode == 0, $"kvbench {string.Join(' ', arguments)} under strace exited with {run.ExitCode}: {run.Error} {run.Output}");
        return TracedCalls(summary);
    }

    /// <summary>The calls an <c>strace -c -o <paramref name="summary"/></c> counted.</summary>
    internal static long TracedCalls(string summary)
    {
        // strace -c ends with "100.00 <seconds> <usecs/call> <calls> [errors] total"; with no traced call it writes nothing.
        string? total = File.Exists(summary)
            ? File.ReadLines(summary).FirstOrDefault(line => line.TrimEnd().EndsWith(" total", StringComparison.Ordinal))
            : null;
        return total is null ? 0 : long.Parse(total.Split(' ', StringSplitOptions.RemoveEmptyEntries)[3], CultureInfo.InvariantCulture);
    }
}
