using System.Data.Common;

namespace KvBench.Stores.Servers;

/// <summary>
/// <c>SELECT 1</c> over one open ADO.NET connection (Npgsql's, MySqlConnector's), prepared once: the server parses and
/// plans nothing per round trip, as it plans nothing per call of a row's prepared statements.
/// </summary>
internal sealed class SqlPing : IServerPing
{
    private readonly DbConnection _connection;
    private readonly DbCommand _select;

    /// <summary>Opens <paramref name="connection"/> and prepares the statement on it; the ping owns the connection.</summary>
    public SqlPing(DbConnection connection)
    {
        _connection = connection;
        try
        {
            _connection.Open();
            _select = _connection.CreateCommand();
            _select.CommandText = Request;
            _select.Prepare();
        }
        catch
        {
            _connection.Dispose();
            throw;
        }
    }

    public string Request => "SELECT 1";

    public void RoundTrip() => _select.ExecuteScalar();

    public void Dispose()
    {
        _select.Dispose();
        _connection.Dispose();
    }
}
