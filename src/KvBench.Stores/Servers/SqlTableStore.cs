using System.Buffers;
using System.Data;
using System.Data.Common;

using KvBench.Core;

namespace KvBench.Stores.Servers;

/// <summary>
/// What the SQL server rows share: one key-value table whose primary key orders keys by their bytes, so a point
/// operation is one statement on its key and a scan is pages of range seeks, each on a connection of the client's pool.
/// A subclass gives the statements in its server's dialect, the client's typed parameters, and what differs between the
/// servers: how a batch is sent, how a tier is read back and what a flush must do.
/// </summary>
internal abstract class SqlTableStore : StoreAdapter
{
    /// <summary>Rows per scan page: one round trip each.</summary>
    private const int PageSize = 1000;

    private readonly SqlTableStatements _statements;

    /// <summary>Takes <paramref name="dataSource"/>, and disposes it from <see cref="DisposeCore"/>.</summary>
    protected SqlTableStore(StoreRow row, StoreOptions options, DbDataSource dataSource, SqlTableStatements statements)
        : base(row, options)
    {
        DataSource = dataSource;
        _statements = statements;
    }

    /// <summary>The client's pool of connections to the server.</summary>
    protected DbDataSource DataSource { get; }

    /// <summary>The upsert of one key and its value: a batch repeats it.</summary>
    protected string Upsert => _statements.Upsert;

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        Execute(_statements.Upsert, command => command.ExecuteNonQuery(), Bytes(key.ToArray()), Bytes(value.ToArray()));

    protected override bool TryGetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => TryGetThroughArray(key, destination);

    protected override byte[]? GetCore(ReadOnlySpan<byte> key) =>
        Execute(_statements.Select, command =>
        {
            using DbDataReader reader = command.ExecuteReader(CommandBehavior.SingleRow);
            return reader.Read() ? reader.GetFieldValue<byte[]>(0) : null;
        }, Bytes(key.ToArray()));

    protected override bool ContainsKeyCore(ReadOnlySpan<byte> key) =>
        Execute(_statements.Exists, command => command.ExecuteScalar(), Bytes(key.ToArray())) is not null;

    protected override bool DeleteCore(ReadOnlySpan<byte> key) =>
        Execute(_statements.Delete, command => command.ExecuteNonQuery(), Bytes(key.ToArray())) > 0;

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanPrefixCore(ReadOnlyMemory<byte> prefix) =>
        Scans.PrefixInRangePages(prefix, ReadRange);

    protected override IEnumerable<KeyValuePair<byte[], byte[]>> ScanFromCore(ReadOnlyMemory<byte> startKey, int limit) =>
        Scans.FromInRangePages(startKey, limit, ReadRange);

    protected override void DisposeCore() => DataSource.Dispose();

    /// <summary>A <c>bytea</c>/<c>VARBINARY</c> parameter in the client's own type, so the bytes travel as they are.</summary>
    protected abstract DbParameter Bytes(byte[] value);

    /// <summary>An integer parameter in the client's own type.</summary>
    protected abstract DbParameter Integer(int value);

    /// <summary>
    /// Called on every command before it runs, its parameters bound: where the client prepares only when asked
    /// (MySqlConnector), the subclass asks here; where it prepares on its own (Npgsql's automatic preparation), nothing.
    /// </summary>
    protected virtual void Prepare(DbCommand command)
    {
    }

    /// <summary>Runs <paramref name="sql"/> with <paramref name="parameters"/> and returns the first column of its first row, if any.</summary>
    protected object? Scalar(string sql, params DbParameter[] parameters) =>
        Execute(sql, command => command.ExecuteScalar(), parameters);

    /// <summary>Runs <paramref name="sql"/> on a pooled connection with <paramref name="parameters"/> in their order.</summary>
    private T Execute<T>(string sql, Func<DbCommand, T> run, params DbParameter[] parameters)
    {
        using DbConnection connection = DataSource.OpenConnection();
        using DbCommand command = connection.CreateCommand();
        command.CommandText = sql;
        command.Parameters.AddRange(parameters);
        Prepare(command);
        return run(command);
    }

    private bool ReadRange(byte[] lower, byte[]? upper, int maxEntries, List<KeyValuePair<byte[], byte[]>> page)
    {
        int take = Math.Min(maxEntries, PageSize);
        return Execute(upper is null ? _statements.RangeFrom : _statements.RangeBetween, command =>
        {
            using DbDataReader reader = command.ExecuteReader();
            while (reader.Read())
            {
                page.Add(new(reader.GetFieldValue<byte[]>(0), reader.GetFieldValue<byte[]>(1)));
            }

            return page.Count == take;
        }, upper is null ? [Bytes(lower), Integer(take)] : [Bytes(lower), Bytes(upper), Integer(take)]);
    }
}

/// <summary>
/// The statements of a <see cref="SqlTableStore"/> in one server's dialect, their parameters positional and bound in the
/// order given here.
/// </summary>
/// <param name="Upsert">Writes a key (1) and its value (2) whether the key is there or not.</param>
/// <param name="Select">The value of a key (1), no row when it is absent.</param>
/// <param name="Exists">A row for a key (1) that is there, no row when it is absent.</param>
/// <param name="Delete">Removes a key (1).</param>
/// <param name="RangeFrom">Keys and values from a key (1) on, in key order, at most a count (2) of them.</param>
/// <param name="RangeBetween">Keys and values from a key (1) up to before another (2), in key order, at most a count (3).</param>
internal sealed record SqlTableStatements(string Upsert, string Select, string Exists, string Delete, string RangeFrom, string RangeBetween);
