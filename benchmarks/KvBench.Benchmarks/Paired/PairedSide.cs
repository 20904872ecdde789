using System.Buffers;
using System.Diagnostics;

using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Measuring;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks.Paired;

/// <summary>
/// One side of a paired measurement: a point target on a directory of its own, preloaded as the point-operation
/// benchmarks preload it (<see cref="IPointTarget.Load"/>), with the versions its keys hold.
/// </summary>
internal sealed class PairedSide : IDisposable
{
    private readonly ArrayBufferWriter<byte> _buffer = new();
    private readonly IPointTarget _target;
    private readonly VersionedRecords _records;
    private long _reads;
    private long _found;

    private readonly int _valueBytes;
    private readonly PairedRole _role;

    private PairedSide(string name, IPointTarget target, VersionedRecords records, int valueBytes, PairedRole role)
    {
        Name = name;
        _valueBytes = valueBytes;
        _role = role;
        _target = target;
        _records = records;

        // Grown once here, so no measured Get pays for growing the reused buffer.
        _buffer.GetSpan(valueBytes);
    }

    /// <summary>The row or variant this side measures.</summary>
    public string Name { get; }

    /// <summary>
    /// Opens <paramref name="name"/> on the empty <paramref name="directory"/> and loads <paramref name="count"/> records
    /// of <paramref name="valueBytes"/>, to be timed as <paramref name="role"/>.
    /// </summary>
    /// <exception cref="InvalidDataException">The load did not read back its exact bytes.</exception>
    public static PairedSide Load(string name, string directory, int valueBytes, int count, PairedRole role)
    {
        Directory.CreateDirectory(directory);
        var records = new VersionedRecords(new RecordSet(valueBytes), count);
        IPointTarget target = PointTargets.Open(name, directory);
        try
        {
            target.Load(records.Records.Records(0, count));
            records.Adopt(key => target.Get(key)).ThrowIfFailed(name);
            return new PairedSide(name, target, records, valueBytes, role);
        }
        catch
        {
            target.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Runs <paramref name="operations"/> calls of <paramref name="method"/> (one of <see cref="PointMethods"/>), each as
    /// <see cref="PointOperations"/>' method of that name makes it, and returns the <see cref="Stopwatch"/> ticks they took.
    /// </summary>
    public long Time(string method, int operations) =>
        _role == PairedRole.Row ? Time<RowLoops>(method, operations) : Time<ReferenceLoops>(method, operations);

    /// <summary>Threads that call this side's target at once, each on a block of its keys; the caller disposes them before this side.</summary>
    public CallingThreads CallFrom(int threads) => new(_target, _records, threads, _valueBytes, _role);

    /// <summary>Throws unless every key holds the version written last and every read found its key: a skipped write or a missed read is no result.</summary>
    /// <exception cref="InvalidDataException">A key did not hold what was written last, or a read missed.</exception>
    public void Verify()
    {
        _records.VerifyLastWrites(key => _target.Get(key)).ThrowIfFailed(Name);
        if (_found != _reads)
        {
            throw new InvalidDataException($"{Name}: {_reads - _found} of {_reads} measured reads did not find a key that every read should find.");
        }
    }

    public void Dispose() => _target.Dispose();

    /// <summary><see cref="Time(string, int)"/> in the copy of the loops of this side's role (<see cref="PairedRole"/>).</summary>
    private long Time<TLoops>(string method, int operations)
        where TLoops : struct
    {
        _reads += method == PointMethods.Put ? 0 : operations;
        long started = Stopwatch.GetTimestamp();
        switch (method)
        {
            case PointMethods.Put:
                for (int i = 0; i < operations; i++)
                {
                    int index = _records.Next();
                    _target.Put(_records.Key(index), _records.Rewrite(index));
                }

                break;
            case PointMethods.Get:
                for (int i = 0; i < operations; i++)
                {
                    _buffer.ResetWrittenCount();
                    _found += _target.TryGet(_records.Key(_records.Next()), _buffer) ? 1 : 0;
                }

                break;
            case PointMethods.GetArray:
                for (int i = 0; i < operations; i++)
                {
                    _found += _target.Get(_records.Key(_records.Next())) is null ? 0 : 1;
                }

                break;
            case PointMethods.HaveKey:
                for (int i = 0; i < operations; i++)
                {
                    _found += _target.ContainsKey(_records.Key(_records.Next())) ? 1 : 0;
                }

                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(method), method, $"Not a point method; the methods are {string.Join(", ", PointMethods.All)}.");
        }

        return Stopwatch.GetTimestamp() - started;
    }
}
