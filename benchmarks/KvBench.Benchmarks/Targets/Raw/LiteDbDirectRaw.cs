using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports;
using KvBench.Stores;

using LiteDB;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// <c>LiteDB_Direct_raw</c>: <see cref="LiteDbRawTarget"/> on a direct connection, one engine for the target's life, as
/// the row keeps it. Measured at one value size, for the default run's budget.
/// </summary>
[PointVariant(StoreNames.LiteDbDirect, RowVariantKind.Raw, OnlyValueBytes = PublishedPointOperations.ValueBytes)]
internal sealed class LiteDbDirectRaw(string directory) : LiteDbRawTarget(directory, ConnectionType.Direct);
