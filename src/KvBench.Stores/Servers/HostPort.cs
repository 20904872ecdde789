using System.Globalization;

namespace KvBench.Stores.Servers;

/// <summary>A server's <c>host:port</c> endpoint, as KvBench's own servers publish it and a user may give it.</summary>
/// <param name="Host">The host name or address, without the port.</param>
/// <param name="Port">The TCP port.</param>
internal readonly record struct HostPort(string Host, int Port)
{
    /// <summary>
    /// Reads <paramref name="endpoint"/> as <c>host:port</c>, split at its last colon; <see langword="false"/> when it is not
    /// one (a client's own connection string, say).
    /// </summary>
    public static bool TryParse(string endpoint, out HostPort hostPort)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        int colon = endpoint.LastIndexOf(':');
        if (colon > 0 && ushort.TryParse(endpoint.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out ushort port) && port > 0)
        {
            hostPort = new HostPort(endpoint[..colon], port);
            return true;
        }

        hostPort = default;
        return false;
    }
}
