using System.Net;
using System.Net.Sockets;

namespace KvBench.Stores.Servers;

/// <summary>Ports for the servers KvBench starts on loopback.</summary>
internal static class LoopbackPorts
{
    /// <summary>A port nothing listens on now; the kernel does not hand it out again at once, so the server gets it.</summary>
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
