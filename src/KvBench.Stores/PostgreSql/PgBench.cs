using System.Diagnostics;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores.Servers;

using Npgsql;

namespace KvBench.Stores.PostgreSql;

/// <summary>
/// pgbench, from the PostgreSQL package the server comes from, against a PostgreSQL server: custom scripts (<c>-f</c>)
/// of the PostgreSQL row's own statements on a table of the row's shape, loaded beforehand. Not pgbench's builtin
/// <c>-S</c>: its pgbench_accounts rows are integers and an 84-byte padding column, not keys and values of the row's
/// sizes, so its selects would measure another table.
/// </summary>
internal sealed class PgBench : ServerBenchmark
{
    private const string Table = "kvbench_pgbench";

    /// <summary>A key as the store's records are long (9 bytes): a zero byte, then the index big-endian.</summary>
    private const string Key = @"'\x00'::bytea || int8send(:k)";

    public override string Tool => "pgbench";

    public override string Method =>
        $"custom scripts (`-f`, `-M prepared`, `-n`) on a table of the row's shape, `{Table} (key bytea PRIMARY KEY, " +
            $"value bytea)`, loaded beforehand with 9-byte keys: the row's own upsert (`INSERT ... ON CONFLICT (key) " +
            $"DO UPDATE`) of a value the server makes from `md5(random())`, and `SELECT value ... WHERE key = ...`, " +
            $"keys drawn uniformly (`\\set k random`), one connection per client (`-c`), for whole seconds (`-T`); " +
            $"not the builtin `-S`, whose pgbench_accounts rows are integers and padding, not values of the row's " +
            $"size";

    private protected override async Task<ServerBenchmarkResult> RunCoreAsync(HostPort server, ServerBenchmarkRun run, CancellationToken cancellationToken)
    {
        string endpoint = $"{server.Host}:{server.Port.ToString(CultureInfo.InvariantCulture)}";
        await LoadAsync(endpoint, run, cancellationToken).ConfigureAwait(false);
        string scripts = Directory.CreateTempSubdirectory("kvbench-pgbench-").FullName;
        try
        {
            string put = Path.Combine(scripts, "put.sql");
            string get = Path.Combine(scripts, "get.sql");
            await File.WriteAllTextAsync(
                put,
                $"{RandomKey(run)}INSERT INTO {Table} (key, value) VALUES ({Key}, {Value(run, "random()::text")}) ON " +
                    $"CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;\n",
                cancellationToken).ConfigureAwait(false);
            await File.WriteAllTextAsync(get, $"{RandomKey(run)}SELECT value FROM {Table} WHERE key = {Key};\n", cancellationToken).ConfigureAwait(false);
            (string putCommand, double puts) = await Task.Run(() => Run(server, run, put), cancellationToken).ConfigureAwait(false);
            (string getCommand, double gets) = await Task.Run(() => Run(server, run, get), cancellationToken).ConfigureAwait(false);
            return new ServerBenchmarkResult([putCommand, getCommand], puts, gets);
        }
        finally
        {
            Directory.Delete(scripts, recursive: true);
        }
    }

    /// <summary>
    /// The transactions per second pgbench reports (without the time it took to connect), from its standard output.
    /// </summary>
    /// <exception cref="ServerBenchmarkException">No tps line, a rate that is not a positive number, or failed transactions.</exception>
    internal static double TransactionsPerSecond(string output)
    {
        ArgumentNullException.ThrowIfNull(output);
        string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        const string Failed = "number of failed transactions: ";
        if (lines.FirstOrDefault(line => line.StartsWith(Failed, StringComparison.Ordinal)) is { } failed
            && !failed[Failed.Length..].StartsWith("0 ", StringComparison.Ordinal))
        {
            throw new ServerBenchmarkException("pgbench", failed);
        }

        const string Tps = "tps = ";
        string? line = lines.FirstOrDefault(line =>
            line.StartsWith(Tps, StringComparison.Ordinal) && line.EndsWith("(without initial connection time)", StringComparison.Ordinal));
        string? number = line?[Tps.Length..].Split(' ')[0];
        return number is not null
            && double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double rate)
            && double.IsFinite(rate)
            && rate > 0
            ? rate
            : throw new ServerBenchmarkException(
                "pgbench",
                $"no positive \"tps = ... (without initial connection time)\" in its output: {ServerCommand.LastLines(output, 3)}");
    }

    /// <summary>The table, made afresh with <see cref="ServerBenchmarkRun.Records"/> rows in one statement.</summary>
    private static async Task LoadAsync(string endpoint, ServerBenchmarkRun run, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(PostgreSqlStore.ConnectionString(endpoint).ConnectionString);
        await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
        string load =
            $"DROP TABLE IF EXISTS {Table}; CREATE TABLE {Table} (key bytea PRIMARY KEY, value bytea NOT NULL); "
            + $"INSERT INTO {Table} SELECT {Key.Replace(":k", "i", StringComparison.Ordinal)}, " +
                $"{Value(run, "i::text")} FROM generate_series(0, " +
                $"{(run.Records - 1).ToString(CultureInfo.InvariantCulture)}) AS i; "
            + $"ANALYZE {Table};";
        await using var command = new NpgsqlCommand(load, connection) { CommandTimeout = 300 };
        await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>pgbench's <c>\set</c> of the key's index, uniform over the keyspace.</summary>
    private static string RandomKey(ServerBenchmarkRun run) =>
        string.Create(CultureInfo.InvariantCulture, $"\\set k random(0, {run.Records - 1})\n");

    /// <summary>A value of the run's size, made on the server from <paramref name="valueSource"/>'s md5 (16 bytes) repeated.</summary>
    private static string Value(ServerBenchmarkRun run, string valueSource) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"substring(decode(repeat(md5({valueSource}), {(run.ValueBytes + 15) / 16}), 'hex') from 1 for {run.ValueBytes})");

    /// <summary>One script with the run's clients for its seconds, at the run's tier (synchronous_commit is the session's).</summary>
    private (string Command, double Rate) Run(HostPort server, ServerBenchmarkRun run, string script)
    {
        string clients = run.Clients.ToString(CultureInfo.InvariantCulture);
        var startInfo = new ProcessStartInfo(PostgreSqlRow.Binary("pgbench"),
        [
            "-h", server.Host, "-p", server.Port.ToString(CultureInfo.InvariantCulture), "-U", "postgres", "-n", "-M", "prepared",
            "-c", clients, "-j", clients, "-T", run.WholeSeconds.ToString(CultureInfo.InvariantCulture), "-f", script, "postgres",
        ]);
        startInfo.Environment["PGOPTIONS"] = $"-c synchronous_commit={(run.Durability == Durability.Synced ? "on" : "off")}";
        string command = $"PGOPTIONS='{startInfo.Environment["PGOPTIONS"]}' {Tool} " +
            $"{string.Join(' ', startInfo.ArgumentList.Select(argument => argument == script ? Path.GetFileName(script) : argument))}";
        return (command, TransactionsPerSecond(RunTool(startInfo)));
    }
}
