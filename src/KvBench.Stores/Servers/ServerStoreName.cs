using System.Security.Cryptography;
using System.Text;

namespace KvBench.Stores.Servers;

/// <summary>
/// The name of a store on a server, from the directory a caller gives: every directory a store of its own (each test's
/// scratch directory, each user's data folder), in a name every server accepts as a table (letters, digits, "_", well
/// under PostgreSQL's 63 and MariaDB's 64 characters).
/// </summary>
internal static class ServerStoreName
{
    /// <summary>"kv_" and the first 128 bits of the SHA-256 of the directory's full path, in hex.</summary>
    public static string Of(string directory)
    {
        string fullPath = Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory));
        byte[] hash = SHA256.HashData(Encoding.UTF8.GetBytes(fullPath));
        return "kv_" + Convert.ToHexStringLower(hash, 0, 16);
    }
}
