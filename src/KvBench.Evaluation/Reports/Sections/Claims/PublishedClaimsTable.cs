using System.Globalization;
using System.Text;



namespace KvBench.Evaluation.Reports.Sections.Claims;

/// <summary>The published write-up's claims beside what was measured, and every cell the figures come from.</summary>
public static class PublishedClaimsTable
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The claims table, then the cells table, then a paragraph on how they ran.</summary>
    public static string ToMarkdown(PublishedClaimResults results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var output = new StringBuilder();
        var claims = new MarkdownTable("Claim", "Measured", "Verdict");
        foreach (ClaimVerdict verdict in PublishedClaimVerdicts.Of(results))
        {
            claims.Add(verdict.Claim, verdict.Measured, verdict.Verdict);
        }

        claims.WriteTo(output);
        var cells = new MarkdownTable("Row", "Statement", "Tier", "Writes", "Mode", "Batches", "Median batch", "Writes/s");
        foreach (WriteCell cell in results.Cells)
        {
            cells.Add(
                cell.Row,
                cell.Statement,
                cell.Durability.ToString(),
                cell.Sparse ? string.Create(s_numbers, $"{cell.WritesPerBatch} (sparse rounds)") : cell.WritesPerBatch.ToString("N0", s_numbers),
                cell.Mode == WriteMode.Pool ? $"pool of {cell.Threads}" : "synchronous",
                cell.Batches.Count.ToString("N0", s_numbers),
                string.Create(s_numbers, $"{cell.Median.TotalMilliseconds:N2} ms"),
                string.Create(s_numbers, $"{(cell.Sparse ? cell.WritesPerSecond : cell.WritesPerBatch / cell.Median.TotalSeconds):N0}"));
        }

        cells.WriteTo(output);
        PublishedClaimSettings settings = results.Settings;
        output.AppendLine(string.Create(s_numbers,
            $"Each write is one `Put` of its own (autocommit, no transaction around a batch, as the write-up kept " +
                $"them) that overwrites one of {settings.Records:N0} player records ({settings.ValueBytes} B values) " +
                $"with its next version, so every write changes the bytes its key holds; afterwards every record is " +
                $"read back and must hold the version written last. Sparse rounds: {settings.SparseRounds:N0} rounds " +
                $"of {PublishedClaimSettings.RowsPerRound} writes (the write-up's " +
                $"{PublishedClaimSettings.WriteUpRounds:N0} divided by {settings.RoundsDivisor}), writes/s over all " +
                $"of them. Volumes: one batch of warm-up, then {settings.Repeats} batches of " +
                $"{string.Join(" and ", settings.Volumes)} writes, the median reported; the pool is " +
                $"{settings.PoolThreads} threads sharing a batch's writes (`Parallel.For`), the write-up's " +
                $"asynchronous pool of 4. The stores a comparison sets side by side take turns batch by batch (round " +
                $"by round for the sparse rounds) in ABBA order, so the machine's other work falls on all of them " +
                $"alike. Tiers compare like with like: Synced is Sqlite_WAL's `synchronous=FULL` against " +
                $"`innodb_flush_log_at_trx_commit=1`, Buffered `synchronous=NORMAL` against `2`. MariaDB runs on " +
                $"loopback; its figures include the round trip. `{Command(settings)}`")).AppendLine();
        return output.ToString();
    }

    /// <summary>The <c>kvbench servers claims</c> command that measures these settings alone.</summary>
    public static string Command(PublishedClaimSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return string.Create(s_numbers, $"kvbench servers claims --rounds-divisor {settings.RoundsDivisor} --repeats {settings.Repeats}");
    }
}
