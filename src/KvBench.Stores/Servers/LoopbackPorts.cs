using System.Net;
using System.Net.Sockets;

namespace KvBench.Stores.Servers;

/// <summary>Ports for the servers KvBench starts on loopback.</summary>
internal static class LoopbackPorts
{
    private static readonly Lock s_lock = new();

    /// <summary>Every port this process has handed out, so two servers it starts never get the same one.</summary>
    private static readonly HashSet<int> s_handedOut = [];

    /// <summary>A port nothing listens on now and this process has not handed out before (<see cref="Free(int)"/>).</summary>
    public static int Free() => Free(1)[0];

    /// <summary>
    /// <paramref name="count"/> distinct ports nothing listens on now and this process has not handed out before. Each
    /// is the kernel's choice for a listener on port 0, and every listener stays open until all are chosen: a port
    /// closed at once may be the kernel's next choice (an etcd cluster once got the same port for two members and did
    /// not start, "has duplicate url").
    /// </summary>
    public static int[] Free(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        var listeners = new List<TcpListener>();
        var ports = new List<int>();
        try
        {
            lock (s_lock)
            {
                while (ports.Count < count)
                {
                    var listener = new TcpListener(IPAddress.Loopback, 0);
                    listeners.Add(listener);
                    listener.Start();
                    int port = ((IPEndPoint)listener.LocalEndpoint).Port;
                    if (s_handedOut.Add(port))
                    {
                        ports.Add(port);
                    }
                }
            }

            return [.. ports];
        }
        finally
        {
            foreach (TcpListener listener in listeners)
            {
                listener.Dispose();
            }
        }
    }
}
