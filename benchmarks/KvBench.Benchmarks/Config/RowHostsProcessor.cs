using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Running;

using KvBench.Stores;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// Starts what the run's rows need running (<see cref="StoreRow.CreateHost"/>) once, in BenchmarkDotNet's host process
/// before the first case, and stops it after the last: BenchmarkDotNet runs every case in a process of its own, so a
/// server started by a case would be started again for every case. A run that ends by an exception between the two
/// still stops every server process, as this process exits (<see cref="ProcessRowHost"/>).
/// </summary>
internal sealed class RowHostsProcessor : EventProcessor
{
    private readonly Func<IReadOnlyList<string>, CancellationToken, Task<RowHostGroup>> _startHosts;
    private readonly Lock _hostsLock = new();
    private string[] _rows = [];
    private RowHostGroup? _hosts;

    /// <summary>A processor that starts the catalog's hosts of the run's rows (<see cref="StoreCatalog.StartHostsAsync"/>).</summary>
    public RowHostsProcessor()
        : this(StoreCatalog.StartHostsAsync)
    {
    }

    /// <summary>A processor that starts the run's rows' hosts with <paramref name="startHosts"/>: tests give servers of their own.</summary>
    internal RowHostsProcessor(Func<IReadOnlyList<string>, CancellationToken, Task<RowHostGroup>> startHosts) => _startHosts = startHosts;

    /// <summary>The rows whose hosts run now, empty before the run stage and after it.</summary>
    public IReadOnlyList<string> Running
    {
        get
        {
            lock (_hostsLock)
            {
                return _hosts is null ? [] : _rows;
            }
        }
    }

    /// <summary>Notes the catalog rows of the cases about to be built: a variant (<c>_raw</c>, <c>_naive</c>) needs its row's host too.</summary>
    public override void OnStartBuildStage(IReadOnlyList<BuildPartition> partitions) =>
        _rows = [.. partitions
            .SelectMany(partition => partition.Benchmarks)
            .Select(benchmark => benchmark.BenchmarkCase.Parameters[nameof(PointOperations.Type)])
            .OfType<string>()
            .Select(type => RowVariants.Parse(type).Row)
            .Where(StoreCatalog.AllNames.Contains)
            .Distinct()];

    public override void OnStartRunStage()
    {
        // BenchmarkDotNet's events are synchronous; the run waits here until every host is ready.
        RowHostGroup hosts = _startHosts(_rows, CancellationToken.None).GetAwaiter().GetResult();
        lock (_hostsLock)
        {
            _hosts = hosts;
        }
    }

    public override void OnEndRunStage()
    {
        RowHostGroup? hosts;
        lock (_hostsLock)
        {
            hosts = _hosts;
            _hosts = null;
        }

        hosts?.DisposeAsync().AsTask().GetAwaiter().GetResult();
    }
}
