using System.Globalization;


namespace KvBench.Evaluation.Reports.Sections.PointOperations;

/// <summary>
/// The point-operation table the NexusMods decision record "Use SqlLite as a datastore" published (BenchmarkDotNet,
/// 9-byte keys, 128-byte values), each cell set beside the same method and row measured in this run, so a reader sees
/// which of that record's figures hold on their machine. The published figures are quoted from the record, the one
/// place KvBench prints a number it did not measure, and the table says so in its header.
/// </summary>
public static class PublishedPointOperations
{
    /// <summary>The value size of the record's table, which the measured cells are taken at.</summary>
    public const int ValueBytes = 128;

    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The record's rows, as published: mean time and bytes allocated per call.</summary>
    private static readonly Published[] s_record =
    [
        new("FileSystem", "Put", 125_418.1, 5_176),
        new("FileSystem", "Get", 29_349.1, 5_752),
        new("FileSystem", "HaveKey", 11_911.0, 824),
        new(
            "LiteDB", "Put", 1_933_521.3, 163_360,
            "measured here on the LiteDB row (Connection=Shared), whose every write is fsynced as its per-operation " +
                "engine closes: Synced, whatever the tier asked"),
        new("LiteDB", "Get", 309_517.3, 148_657),
        new("LiteDB", "HaveKey", 317_962.0, 156_145),
        new(
            "LMDB", "Put", 525_621.3, 593,
            "published as a synced commit per Put (LMDB's default), measured here at Buffered: the SyncedPuts table has LMDB's synced Put"),
        new("LMDB", "Get", 872.0, 744),
        new("LMDB", "HaveKey", 835.6, 592),
        new("Sqlite_WAL", "Put", 7_169.4, 2_696),
        new("Sqlite_WAL", "Get", 5_484.1, 7_688),
        new("Sqlite_WAL", "HaveKey", 4_715.3, 2_448),
        new("Sqlite_Scalar", "Put", 14_251.8, 7_544),
        new("Sqlite_Scalar", "Get", 8_571.2, 9_336),
        new("Sqlite_Scalar", "HaveKey", 4_714.2, 2_448),
    ];

    /// <summary>
    /// One line per published cell: the record's mean and allocation, this run's (at <see cref="ValueBytes"/>-byte
    /// values, Buffered), and measured ÷ published; "not measured here" where this run has no such row.
    /// </summary>
    public static MarkdownTable Table(BenchmarkReport pointOperations)
    {
        ArgumentNullException.ThrowIfNull(pointOperations);
        var table = new MarkdownTable(
            "Row", "Method", "Published mean", "Published allocated", "Measured mean", "Measured allocated",
            "Measured ÷ published", "Note");
        foreach (Published cell in s_record)
        {
            string[]? measured = pointOperations.Rows.FirstOrDefault(row =>
                pointOperations.Cell(row, "Type") == cell.Row
                && pointOperations.Cell(row, "Method") == cell.Method
                && pointOperations.Cell(row, "ValueBytes") == ValueBytes.ToString(s_numbers));
            double? mean = measured is null ? null : BenchmarkReport.Nanoseconds(pointOperations.Cell(measured, "Mean") ?? string.Empty);
            table.Add(
                cell.Row,
                cell.Method,
                string.Create(s_numbers, $"{cell.MeanNanoseconds:N1} ns"),
                string.Create(s_numbers, $"{cell.AllocatedBytes:N0} B"),
                measured is null ? "not measured here" : pointOperations.Cell(measured, "Mean") ?? "-",
                measured is null ? "-" : pointOperations.Cell(measured, "Allocated") ?? "-",
                mean is { } nanoseconds ? string.Create(s_numbers, $"{nanoseconds / cell.MeanNanoseconds:0.###}") : "-",
                cell.Note ?? string.Empty);
        }

        return table;
    }

    private sealed record Published(string Row, string Method, double MeanNanoseconds, long AllocatedBytes, string? Note = null);
}
