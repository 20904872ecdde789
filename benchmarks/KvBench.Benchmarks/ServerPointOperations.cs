using BenchmarkDotNet.Attributes;

using KvBench.Benchmarks.Targets;
using KvBench.Core;
using KvBench.Evaluation.Reports.Sections.PointOperations;
using KvBench.Stores.Redis;

namespace KvBench.Benchmarks;

/// <summary>
/// The server rows' point operations (see <see cref="PointOperationCases"/>): each server row whose server can be had
/// here, through its adapter and through its client used directly (<c>_raw</c>, one connection held open), on the same
/// server and tier: Buffered, or Synced for a row that offers only Synced. The servers are KvBench's own, started once
/// for the run in BenchmarkDotNet's host process (<see cref="RowHostsProcessor"/>) and found by every case's process
/// through the variables the host publishes, or the user's own (each row's endpoint variable). Run with
/// <c>--servers</c>, or alone with <c>--filter *ServerPointOperations*</c>; never by the default evaluation, which
/// starts no server.
/// </summary>
[BenchmarkCategory(Categories.ServerPointOperations)]
[MeasuredAt(Durability.Buffered)]
public class ServerPointOperations : PointOperationCases
{
    [ParamsSource(nameof(Types))]
    public override string Type { get; set; } = RedisRow.RowName;

    /// <summary>Every server row available here, each followed by its raw baseline (see <see cref="PointTargets.ServerNames"/>).</summary>
    public static IEnumerable<string> Types => PointTargets.ServerNames;

    /// <summary>
    /// Whether <paramref name="method"/> is measured at <paramref name="valueBytes"/>: Put, Get and HaveKey at
    /// <see cref="PublishedPointOperations.ValueBytes"/> only. A round trip over loopback is tens of microseconds, which a
    /// second value size or a returned array moves by far less than the iterations vary; the cases they would add cost
    /// the run minutes (etcd's Put, synced on three members, takes milliseconds).
    /// </summary>
    public static bool Measures(string method, int valueBytes) =>
        method is not nameof(GetArray) && valueBytes == PublishedPointOperations.ValueBytes;
}
