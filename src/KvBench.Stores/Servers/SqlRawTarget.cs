using System.Buffers;
using System.Data;
using System.Data.Common;


using KvBench.Stores.Baselines;

namespace KvBench.Stores.Servers;

/// <summary>
/// A SQL server's raw baseline: the client used directly on one connection held open for the target's life, the
/// adapter's statements prepared once with their parameters reused, where the adapter takes a pooled connection per call
/// (what a team that keeps its own connection saves, measured rather than argued). One thread only: a connection
/// serves one command at a time.
/// </summary>
internal abstract class SqlRawTarget : IPointTarget
{
    private readonly DbConnection _connection;
    private readonly DbCommand _upsert;
    private readonly DbCommand _select;
    private readonly DbCommand _exists;

    /// <param name="connection">An open connection, owned by the target from here on.</param>
    /// <param name="statements">The adapter's statements on the store's table.</param>
    /// <param name="bytes">A parameter of the column type the adapter binds keys and values as.</param>
    protected SqlRawTarget(DbConnection connection, SqlTableStatements statements, Func<DbParameter> bytes)
    {
        _connection = connection;
        try
        {
            _upsert = Prepared(statements.Upsert, bytes(), bytes());
            _select = Prepared(statements.Select, bytes());
            _exists = Prepared(statements.Exists, bytes());
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        _upsert.Parameters[0].Value = key.ToArray();
        _upsert.Parameters[1].Value = value.ToArray();
        _ = _upsert.ExecuteNonQuery();
    }

    public bool TryGet(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => IPointTarget.CopyFound(Get(key), destination);

    public byte[]? Get(ReadOnlySpan<byte> key)
    {
        _select.Parameters[0].Value = key.ToArray();
        using DbDataReader reader = _select.ExecuteReader(CommandBehavior.SingleRow);
        return reader.Read() ? reader.GetFieldValue<byte[]>(0) : null;
    }

    public bool ContainsKey(ReadOnlySpan<byte> key)
    {
        _exists.Parameters[0].Value = key.ToArray();
        return _exists.ExecuteScalar() is not null;
    }

    public void Dispose()
    {
        _upsert.Dispose();
        _select.Dispose();
        _exists.Dispose();
        _connection.Dispose();
    }

    private DbCommand Prepared(string sql, params DbParameter[] parameters)
    {
        DbCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        command.Parameters.AddRange(parameters);
        command.Prepare();
        return command;
    }
}
