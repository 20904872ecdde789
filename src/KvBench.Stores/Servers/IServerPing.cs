namespace KvBench.Stores.Servers;

/// <summary>
/// One connection to a row's server through the row's own client, for timing a round trip that asks the server for
/// nothing (<see cref="Request"/>): what the loopback and the client add to every call of the row.
/// </summary>
public interface IServerPing : IDisposable
{
    /// <summary>What one round trip sends: <c>PING</c>, <c>SELECT 1</c>.</summary>
    string Request { get; }

    /// <summary>Sends <see cref="Request"/> and waits for its answer.</summary>
    void RoundTrip();
}
