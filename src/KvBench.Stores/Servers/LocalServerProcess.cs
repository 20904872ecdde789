using System.Globalization;
using System.Net;

namespace KvBench.Stores.Servers;

/// <summary>
/// The command line of the process that listens on a TCP endpoint of this machine, read from Linux's /proc: how a row
/// reads a setting its server does not report over its protocol (Garnet's storage device) when the server runs here.
/// </summary>
internal static class LocalServerProcess
{
    /// <summary>A socket's state in /proc/net/tcp while it listens.</summary>
    private const string Listening = "0A";

    /// <summary>
    /// The command line (program and arguments) of the process listening on <paramref name="endpoint"/>'s port, or
    /// <see langword="null"/> when the endpoint is not an IP address of this machine's loopback, nothing here listens
    /// on it, or /proc does not say (another OS, a process of another user this one may not look into).
    /// </summary>
    public static IReadOnlyList<string>? CommandLine(EndPoint? endpoint)
    {
        if (!OperatingSystem.IsLinux() || endpoint is not IPEndPoint { Address: var address, Port: int port } || !IPAddress.IsLoopback(address))
        {
            return null;
        }

        string[] inodes = [.. ListeningInodes("/proc/net/tcp", port).Concat(ListeningInodes("/proc/net/tcp6", port))];
        if (inodes.Length == 0)
        {
            return null;
        }

        HashSet<string> sockets = [.. inodes.Select(inode => $"socket:[{inode}]")];
        foreach (string process in Directory.EnumerateDirectories("/proc").Where(path => int.TryParse(Path.GetFileName(path), NumberStyles.None, CultureInfo.InvariantCulture, out _)))
        {
            if (OwnsSocket(process, sockets) && Read(Path.Combine(process, "cmdline")) is { Length: > 0 } commandLine)
            {
                return commandLine.Split('\0', StringSplitOptions.RemoveEmptyEntries);
            }
        }

        return null;
    }

    /// <summary>The inodes of the sockets in <paramref name="table"/> that listen on <paramref name="port"/>.</summary>
    private static IEnumerable<string> ListeningInodes(string table, int port)
    {
        string? text = Read(table);
        if (text is null)
        {
            yield break;
        }

        // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...", addresses as
        // hexadecimal "ADDRESS:PORT".
        foreach (string[] fields in text.Split('\n').Skip(1).Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries)).Where(fields => fields.Length > 9))
        {
            string local = fields[1];
            if (fields[3] == Listening
                && int.TryParse(local.AsSpan(local.LastIndexOf(':') + 1), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out int localPort)
                && localPort == port)
            {
                yield return fields[9];
            }
        }
    }

    private static bool OwnsSocket(string process, HashSet<string> sockets)
    {
        try
        {
            return Directory.EnumerateFileSystemEntries(Path.Combine(process, "fd"))
                .Any(descriptor => new FileInfo(descriptor).LinkTarget is { } target && sockets.Contains(target));
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            // The process ended meanwhile, or is another user's.
            return false;
        }
    }

    private static string? Read(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
