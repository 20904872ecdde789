using LiteDB;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// <c>LiteDB_raw</c>: <see cref="LiteDbRawTarget"/> on a shared connection. It pays LiteDB's own costs as the row does:
/// a whole engine built and disposed per operation under the named mutex.
/// </summary>
internal sealed class LiteDbRaw(string directory) : LiteDbRawTarget(directory, ConnectionType.Shared);
