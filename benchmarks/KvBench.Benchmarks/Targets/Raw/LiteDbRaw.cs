using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Reports;
using KvBench.Stores;

using LiteDB;

namespace KvBench.Benchmarks.Targets.Raw;

/// <summary>
/// <c>LiteDB_raw</c>: <see cref="LiteDbRawTarget"/> on a shared connection. It pays LiteDB's own costs as the row does:
/// a whole engine built and disposed per operation under the named mutex.
/// </summary>
[PointVariant(StoreNames.LiteDb, RowVariantKind.Raw, OnlyValueBytes = PublishedPointOperations.ValueBytes)]
internal sealed class LiteDbRaw(string directory) : LiteDbRawTarget(directory, ConnectionType.Shared);
