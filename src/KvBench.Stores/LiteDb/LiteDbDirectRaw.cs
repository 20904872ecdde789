using LiteDB;

namespace KvBench.Stores.LiteDb;

/// <summary>
/// <c>LiteDB_Direct_raw</c>: <see cref="LiteDbRawTarget"/> on a direct connection, one engine for the target's life, as
/// the row keeps it. Measured at one value size, for the default run's budget.
/// </summary>
internal sealed class LiteDbDirectRaw(string directory) : LiteDbRawTarget(directory, ConnectionType.Direct);
