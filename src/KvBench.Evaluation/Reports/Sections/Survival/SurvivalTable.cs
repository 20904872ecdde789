using KvBench.Core;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Stores;
using KvBench.Stores.Servers;

namespace KvBench.Evaluation.Reports.Sections.Survival;

/// <summary>The survival section's table: what each row survives, every kind of kill side by side.</summary>
public static class SurvivalTable
{
    /// <summary>
    /// What every row survives, one line per row and tier: the rounds that killed the writer process (the store's
    /// process for an embedded row, the client's for a server row) and, for a server row, the rounds that killed its
    /// server, each with what was acknowledged and lost; the <see cref="AcknowledgedTier"/> column names a setting that
    /// keeps less than its tier. Embedded rows first, then server rows, each in the order measured.
    /// </summary>
    /// <param name="writerKills">Writer kill rounds, of embedded and server rows.</param>
    /// <param name="serverKills">Server kill rounds.</param>
    /// <param name="powerCuts">
    /// Power-loss rounds (<see cref="PowerLossRounds"/>), or <see langword="null"/> when they did not
    /// run: the table then has no power columns.
    /// </param>
    public static MarkdownTable ToMarkdown(
        IEnumerable<CrashRoundsResult> writerKills,
        IEnumerable<CrashRoundsResult> serverKills,
        IEnumerable<CrashRoundsResult>? powerCuts = null)
    {
        ArgumentNullException.ThrowIfNull(writerKills);
        ArgumentNullException.ThrowIfNull(serverKills);
        Dictionary<(string Store, Durability Durability), CrashRoundsResult> servers = serverKills.ToDictionary(result => (result.Store, result.Durability));
        Dictionary<(string Store, Durability Durability), CrashRoundsResult>? power = powerCuts?.ToDictionary(result => (result.Store, result.Durability));
        var table = new MarkdownTable(
            [
                "Row", "Tier", AcknowledgedTier.ColumnName, "Setting",
                "Process killed: rounds", "acknowledged", "lost",
                "Server killed: rounds", "acknowledged", "lost",
                .. power is null ? Array.Empty<string>() : ["Power cut: rounds", "acknowledged", "lost"],
                "Survives",
            ]);
        CrashRoundsResult[] writers = [.. writerKills.OrderBy(result => StoreCatalog.Row(result.Store) is ServerRow)];
        IEnumerable<CrashRoundsResult> rows = writers.Concat(
            servers.Values.Where(server => !writers.Any(writer => (writer.Store, writer.Durability) == (server.Store, server.Durability))));
        foreach (CrashRoundsResult row in rows)
        {
            CrashRoundsResult? writer = row.Killed == CrashKill.Writer ? row : null;
            CrashRoundsResult? server = servers.GetValueOrDefault((row.Store, row.Durability));
            var serverRow = StoreCatalog.Row(row.Store) as ServerRow;
            bool isServer = serverRow is not null;
            CrashRoundsResult? cut = power?.GetValueOrDefault((row.Store, row.Durability));
            table.Add(
            [
                row.Store,
                row.Durability.ToString(),
                AcknowledgedTier.Label(row.Store, row.Durability),
                serverRow is null ? "-" : $"`{serverRow.Promise(row.Durability).Setting}`",
                Rounds(writer, "not measured"),
                Acknowledged(writer),
                Lost(writer),
                Rounds(server, isServer ? "not measured" : "no server"),
                Acknowledged(server),
                Lost(server),
                .. power is null ? Array.Empty<string>() : [Rounds(cut, "not measured"), Acknowledged(cut), Lost(cut)],
                Survives(writer, server, isServer, cut),
            ]);
        }

        return table;
    }

    private static string Rounds(CrashRoundsResult? result, string absent) => result is null ? absent : $"{result.Rounds:N0}";

    private static string Acknowledged(CrashRoundsResult? result) => result is null ? "-" : $"{result.Acknowledged:N0}";

    private static string Lost(CrashRoundsResult? result) => result switch
    {
        null => "-",
        { Torn: 0, ReopenFailures.Count: 0 } => $"{result.Lost:N0}",
        _ => $"{result.Lost:N0}, {result.Torn:N0} torn, {result.ReopenFailures.Count} reopens failed",
    };

    /// <summary>Which kills lost nothing acknowledged, tore nothing and reopened every time, and which did not.</summary>
    private static string Survives(CrashRoundsResult? writer, CrashRoundsResult? server, bool isServer, CrashRoundsResult? cut = null)
    {
        var held = new List<string>();
        var broke = new List<string>();
        ReadOnlySpan<(CrashRoundsResult?, string)> kills = [(writer, "a process kill"), (server, "a server kill"), (cut, "a power cut")];
        foreach ((CrashRoundsResult? result, string kill) in kills)
        {
            if (result is not null)
            {
                (result.Held ? held : broke).Add(kill);
            }
        }

        string measured = (held.Count, broke.Count) switch
        {
            (0, 0) => "not measured",
            (_, 0) => string.Join(" and ", held),
            (0, _) => "not " + string.Join(" nor ", broke),
            _ => $"{string.Join(" and ", held)}, not {string.Join(" nor ", broke)}",
        };
        return isServer && server is null ? measured + "; server kill not measured" : measured;
    }
}
