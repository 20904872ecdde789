using System.Globalization;
using System.Text;

namespace KvBench.Stores.Dqlite;

/// <summary>
/// The lines of SQL the dqlite row sends through the shell (<see cref="DqliteShell"/>), each at most
/// <see cref="DqliteShell.MaxLineBytes"/>: keys and values travel as hex blob literals (<c>x'...'</c>), the shell taking
/// no parameters, and come back as <c>hex()</c> text, the shell printing a blob as Go's list of decimal bytes. Every row a
/// SELECT prints starts with <c>=</c>: the shell prints nothing for a row whose one column is empty, so an empty value
/// would read as no row.
/// </summary>
internal static class DqliteSql
{
    /// <summary>
    /// The longest key: a page of a scan names two keys in one SELECT line (its lower bound, at most a key and a zero
    /// byte, and its upper bound), each in hex, with <see cref="RangeOverheadBytes"/> of SQL around them.
    /// </summary>
    public const int MaxKeyBytes = (DqliteShell.MaxQueryLineBytes - RangeOverheadBytes - 2) / 4;

    /// <summary>Rows a scan page reads at most.</summary>
    public const int PageRows = 1000;

    /// <summary>
    /// The value bytes a scan page stops after: a page ends at the first row that starts past them, so a page of large
    /// values stays a few MiB in the shell and here (a page of 1,000 values of 4 MiB would be 8 GB of hex).
    /// </summary>
    public const int PageValueBytes = 4 * 1024 * 1024;

    /// <summary>
    /// The SQL of a scan page's line without its two keys' hex, rounded up (<see cref="Range"/> with a table name of
    /// <see cref="TableNameBytes"/>).
    /// </summary>
    internal const int RangeOverheadBytes = 340;

    /// <summary>What <see cref="Servers.ServerStoreName.Of"/> names a table: "kv_" and 32 hex digits.</summary>
    internal const int TableNameBytes = 35;

    /// <summary>
    /// The SQL of a staged value's part line without its hex, rounded up; the rest of a line carries a part: about
    /// 2,000 bytes of value a line.
    /// </summary>
    private const int PartOverheadBytes = 90;

    /// <summary>How many bytes of a value one staged line carries.</summary>
    public const int PartBytes = (DqliteShell.MaxLineBytes - PartOverheadBytes) / 2;

    /// <summary>
    /// The connection's settings for a write that is staged (a batch, or a value too long for one line).
    /// Temporary tables are the leader's, of this connection, and are not replicated: a batch or a large value is staged
    /// there line by line, at no Raft commit, then written to the store in one statement. They are kept in memory: with
    /// SQLite's default (a file once a temporary table outgrows its 500-page cache), the leader dies of a segmentation
    /// fault (exit 139) once the staged parts spill to a file, and the leader elected next dies of the same lines;
    /// dqlite 1.11's file system layer is not made for SQLite's temporary files.
    /// The page cache may hold 256 MiB (<c>cache_size</c>; SQLite's default is 2 MB): in dqlite 1.11, a transaction that
    /// changes more pages than the cache holds fails at its commit with "commit: disk I/O error", may leave some of its
    /// rows written, and every later one of the same size then fails with "unable to rollback: exec: disk I/O error"
    /// (with <c>cache_spill</c> off the same); with this cache size the evaluation's batches go in. The cache is the
    /// leader's, one per connection, and grows only with the pages read or written.
    /// </summary>
    private const string ConnectionPragmas = "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144";

    private const string Changes = "temp.kvbench_changes";

    private const string Batch = "temp.kvbench_batch";

    private const string Parts = "temp.kvbench_part";

    public static string CreateTable(string table) => $"CREATE TABLE IF NOT EXISTS {table}(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID";

    public static string TableExists(string table) => $"SELECT '=' FROM sqlite_master WHERE type = 'table' AND name = '{table}'";

    public static string Select(string table, ReadOnlySpan<byte> key) => $"SELECT '=' || hex(v) FROM {table} WHERE k = {Hex(key)}";

    public static string Exists(string table, ReadOnlySpan<byte> key) => $"SELECT '=' FROM {table} WHERE k = {Hex(key)}";

    /// <summary>The upsert of one or more items in one line, or <see langword="null"/> when they do not fit one.</summary>
    public static string? Upsert(string table, IReadOnlyList<KeyValuePair<byte[], byte[]>> items)
    {
        var line = new StringBuilder($"INSERT INTO {table}(k, v) VALUES");
        const string Conflict = " ON CONFLICT(k) DO UPDATE SET v = excluded.v";
        for (int i = 0; i < items.Count; i++)
        {
            // Checked before each item is written out, so a batch of large items is refused after its first.
            if (line.Length + 12 + (2L * (items[i].Key.Length + items[i].Value.Length)) + Conflict.Length > DqliteShell.MaxLineBytes)
            {
                return null;
            }

            line.Append(i == 0 ? "(" : ",(").Append(Hex(items[i].Key)).Append(", ").Append(Hex(items[i].Value)).Append(')');
        }

        line.Append(Conflict);
        return line.Length <= DqliteShell.MaxLineBytes ? line.ToString() : null;
    }

    /// <summary>
    /// The delete of a key and how many rows it removed, in two lines: the count is kept in a temporary table of the
    /// delete's own transaction, so a shell that changed connections between the lines (Go's database/sql reconnects
    /// silently) finds no such table and fails rather than read another connection's count.
    /// </summary>
    public static string[] Delete(string table, ReadOnlySpan<byte> key) =>
    [
        $"{ConnectionPragmas}; CREATE TEMP TABLE IF NOT EXISTS kvbench_changes(n INTEGER); DELETE FROM {Changes}; INSERT INTO {Changes} VALUES(-1); "
            + $"DELETE FROM {table} WHERE k = {Hex(key)}; UPDATE {Changes} SET n = changes()",
        $"SELECT '=' || n FROM {Changes}",
    ];

    /// <summary>
    /// A page of a scan: keys from <paramref name="lower"/> (up to before <paramref name="upper"/>), in key order, at
    /// most <paramref name="rows"/>, ending at the first row that starts past <see cref="PageValueBytes"/> of values.
    /// Each row is printed as <c>=KEYHEX|VALUEHEX</c>. The running sum is over the page's keys and lengths only: the
    /// LIMIT is taken first, in a subquery of its own (a window in the same SELECT as the LIMIT sums every row the WHERE
    /// lets through, half the table for a scan from a random key), and SQLite's
    /// window keeps no value in a temporary table (see <see cref="ConnectionPragmas"/> for why none may grow). The page's
    /// rows are put in key order by the caller.
    /// </summary>
    public static string Range(string table, byte[] lower, byte[]? upper, int rows) =>
        $"SELECT '=' || hex(t.k) || '|' || hex(t.v) FROM (SELECT k, sum(n) OVER (ORDER BY k ROWS UNBOUNDED " +
            $"PRECEDING) - n AS before FROM (SELECT k, length(v) AS n "
        + $"FROM {table} WHERE k >= {Hex(lower)}{(upper is null ? string.Empty : $" AND k < {Hex(upper)}")} ORDER BY " +
            $"k LIMIT {rows.ToString(CultureInfo.InvariantCulture)})) AS w "
        + $"JOIN {table} AS t ON t.k = w.k WHERE w.before < {PageValueBytes.ToString(CultureInfo.InvariantCulture)}";

    /// <summary>
    /// The lines that write <paramref name="items"/> (distinct keys) in one transaction however large they are: each
    /// item staged in a temporary table of the leader (several to a line where they fit, a large value in parts of
    /// <see cref="PartBytes"/>, joined in order by a window over the parts), then one statement that writes them all,
    /// only if every one of them is staged under this batch's <paramref name="batchId"/>, and a last line that says how
    /// many it wrote: <paramref name="items"/>' count, or 0 when a line failed or the shell changed connections, and
    /// then nothing was written.
    /// </summary>
    public static IEnumerable<string> StagedUpsert(string table, IReadOnlyList<KeyValuePair<byte[], byte[]>> items, long batchId)
    {
        string batch = batchId.ToString(CultureInfo.InvariantCulture);
        yield return $"{ConnectionPragmas}; CREATE TEMP TABLE IF NOT EXISTS kvbench_batch(b INTEGER, i INTEGER, k " +
            $"BLOB NOT NULL, v BLOB NOT NULL, PRIMARY KEY(b, i)); "
            + "CREATE TEMP TABLE IF NOT EXISTS kvbench_part(i INTEGER, s INTEGER, p BLOB NOT NULL, PRIMARY KEY(i, s)); "
            + $"CREATE TEMP TABLE IF NOT EXISTS kvbench_changes(n INTEGER); DELETE FROM {Batch}; DELETE FROM {Parts}" +
                $"; DELETE FROM {Changes}; INSERT INTO {Changes} VALUES(-1)";

        string rowsStart = $"INSERT INTO {Batch}(b, i, k, v) VALUES";
        var rows = new StringBuilder();
        for (int i = 0; i < items.Count; i++)
        {
            (byte[] key, byte[] value) = items[i];
            string index = i.ToString(CultureInfo.InvariantCulture);
            long rowBytes = 2L * (key.Length + value.Length) + batch.Length + index.Length + 16;
            if (rows.Length > 0 && rows.Length + rowBytes > DqliteShell.MaxLineBytes)
            {
                yield return rows.ToString();
                rows.Clear();
            }

            if (rowsStart.Length + rowBytes <= DqliteShell.MaxLineBytes)
            {
                rows.Append(
                    rows.Length == 0
                        ? rowsStart + "("
                        : ",(").Append(batch).Append(", ").Append(index).Append(", ").Append(Hex(key)).Append(", ").Append(Hex(value)).Append(')');
                continue;
            }

            int parts = Math.Max(1, (value.Length + PartBytes - 1) / PartBytes);
            for (int part = 0; part < parts; part++)
            {
                ReadOnlySpan<byte> bytes = value.AsSpan(part * PartBytes, Math.Min(PartBytes, value.Length - (part * PartBytes)));
                yield return $"INSERT INTO {Parts}(i, s, p) VALUES({index}, {part.ToString(CultureInfo.InvariantCulture)}, {Hex(bytes)})";
            }

            // A window's frame is added to in its ORDER BY's order, which an aggregate over a subquery is not promised.
            yield return $"INSERT INTO {Batch}(b, i, k, v) SELECT {batch}, {index}, {Hex(key)}, "
                + $"CAST(group_concat(p, '') OVER (ORDER BY s ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED " +
                    $"FOLLOWING) AS BLOB) FROM {Parts} WHERE i = {index} "
                + $"AND (SELECT count(*) FROM {Parts} WHERE i = {index}) = " +
                    $"{parts.ToString(CultureInfo.InvariantCulture)} LIMIT 1; DELETE FROM {Parts} WHERE i = {index}";
        }

        if (rows.Length > 0)
        {
            yield return rows.ToString();
        }

        yield return $"INSERT INTO {table}(k, v) SELECT k, v FROM {Batch} WHERE b = {batch} AND (SELECT count(*) " +
            $"FROM {Batch} WHERE b = {batch}) = {items.Count.ToString(CultureInfo.InvariantCulture)} "
            + $"ON CONFLICT(k) DO UPDATE SET v = excluded.v; UPDATE {Changes} SET n = changes(); DELETE FROM {Batch}";
        yield return $"SELECT '=' || n FROM {Changes}";
    }

    /// <summary><paramref name="bytes"/> as an SQL blob literal.</summary>
    public static string Hex(ReadOnlySpan<byte> bytes) => $"x'{Convert.ToHexString(bytes)}'";
}
