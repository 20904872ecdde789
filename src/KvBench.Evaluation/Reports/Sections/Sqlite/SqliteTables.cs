using System.Globalization;
using System.Text;



namespace KvBench.Evaluation.Reports.Sections.Sqlite;

/// <summary>The SQLite suites' results as markdown: the tables the CLI prints and the ADR file's SQLite section.</summary>
public static class SqliteTables
{
    private static readonly CultureInfo s_numbers = CultureInfo.InvariantCulture;

    /// <summary>The ADR file's SQLite section: each table with what it measured and the command that measures it alone.</summary>
    /// <param name="output">Where the markdown goes.</param>
    /// <param name="results">The measurements.</param>
    /// <param name="producedBy">The command whose run measured them (the evaluation, or <c>kvbench adr</c>).</param>
    public static void WriteSection(StringBuilder output, SqliteResults results, string producedBy)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(results);
        SqliteSuiteSettings settings = results.Settings;
        output.AppendLine("## SQLite: connection strategies, the SQLITE_BUSY trap, upserts and pragmas").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Measured by `{producedBy}`; each table names the `kvbench sqlite` command that measures it alone with " +
                $"the same settings (more records, threads or time through its options). Buffered durability " +
                $"(synchronous=NORMAL in WAL, OFF with the rollback journal), 9-byte keys, 128-byte values, uniform " +
                $"keys, every write a new version of its record.").AppendLine();

        output.AppendLine("### Strategies × threads").AppendLine();
        output.AppendLine(
            s_numbers,
            $"Every SQLite strategy row loaded with {settings.Strategies.Records:N0} records and driven by the " +
                $"workload runner, {settings.Strategies.Warmup.TotalSeconds:0.##} s of warm-up and " +
                $"{settings.Strategies.Duration.TotalSeconds:0.##} s measured per run. `" +
                $"{SqliteSuites.Command("strategies", settings)}`").AppendLine();
        ThreadTables.Threads(results.Strategies).WriteTo(output);
        ThreadTables.WriteThreadCosts(output, results.Strategies);

        output.AppendLine("### The SQLITE_BUSY trap").AppendLine();
        output.AppendLine(
            s_numbers,
            $"{settings.BusyTrap.Writers} asynchronous writers, {settings.BusyTrap.Writes:N0} writes, each reading a " +
                $"record, awaiting, then writing its next version. The naive pool is several connections with " +
                $"deferred transactions and no busy handling (the MineSaga write-up comparing SQLite with MySQL); " +
                $"the pool of one is that write-up's fix; the rows take the same load through `IKeyValueStore`. `" +
                $"{SqliteSuites.Command("busy", settings)}`").AppendLine();
        BusyTrap(results.BusyTrap).WriteTo(output);

        output.AppendLine("### Upsert forms").AppendLine();
        output.AppendLine(
            s_numbers,
            $"`Sqlite_WAL` with each upsert statement, {settings.Tuning.Records:N0} records" +
                $"{(settings.Tuning.Records < 1_000_000 ? " (the 10^6 form: `kvbench sqlite upsert`, whose default is 1,000,000 records)" : string.Empty)}" +
                $". `{SqliteSuites.Command("upsert", settings)}`").AppendLine();
        ThreadTables.Threads(results.Upserts).WriteTo(output);

        output.AppendLine("### cache_size and mmap_size").AppendLine();
        output.AppendLine(
            s_numbers,
            $"`Sqlite_WAL` with each setting, {settings.Tuning.Records:N0} records" +
                $"{(settings.Tuning.Records < 1_000_000 ? " (the 10^6 form: `kvbench sqlite pragmas`, whose default is 1,000,000 records)" : string.Empty)}" +
                $". `{SqliteSuites.Command("pragmas", settings)}`").AppendLine();
        ThreadTables.Threads(results.Pragmas).WriteTo(output);
    }

    /// <summary>One line per target: errors that reached the caller, lost writes, and how long the slowest write waited.</summary>
    public static MarkdownTable BusyTrap(IEnumerable<BusyTrapResult> results)
    {
        var table = new MarkdownTable(
            "Target", "Usage", "Writes", "Writers", "Busy/locked errors reaching the caller", "Other errors",
            "Lost writes", "Lost acknowledged writes", "Slowest write", "p99 write", "Writes/s");
        foreach (BusyTrapResult result in results)
        {
            table.Add(
                result.Target,
                result.Usage,
                result.Writes.ToString("N0", s_numbers),
                result.Writers.ToString("N0", s_numbers),
                result.BusyErrors.ToString("N0", s_numbers),
                result.OtherErrors.ToString("N0", s_numbers),
                result.LostWrites.ToString("N0", s_numbers),
                result.LostAcknowledgedWrites.ToString("N0", s_numbers),
                WorkloadCells.Latency(result.SlowestWriteMilliseconds * 1e6),
                WorkloadCells.Latency(result.P99WriteMilliseconds * 1e6),
                result.WritesPerSecond.ToString("N0", s_numbers));
        }

        return table;
    }
}
