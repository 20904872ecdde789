using KvBench.Benchmarks.Targets;
using KvBench.Evaluation.Workload;
using KvBench.Stores.Baselines;

namespace KvBench.Benchmarks;

/// <summary>
/// A point target opened on its row's preloaded <see cref="Dataset"/>, with the record versions its keys hold: the
/// setup and cleanup the point-operation benchmarks share. The preload is <see cref="PreloadedRecords"/>' size for the
/// row, which may be fewer records than asked for.
/// </summary>
internal sealed class PreloadedTarget
{
    private readonly Dataset _dataset;
    private readonly string _type;

    private PreloadedTarget(string type, Dataset dataset, VersionedRecords records, IPointTarget target)
    {
        _type = type;
        _dataset = dataset;
        Records = records;
        Target = target;
    }

    /// <summary>The preloaded records, at the versions the target holds.</summary>
    public VersionedRecords Records { get; }

    /// <summary>The opened target.</summary>
    public IPointTarget Target { get; }

    /// <summary>Opens <paramref name="type"/> on its dataset of <paramref name="valueBytes"/>-byte values, loading it when no earlier case did.</summary>
    public static PreloadedTarget Open(string type, int valueBytes, int requestedRecords)
    {
        int count = PreloadedRecords.For(type, requestedRecords);
        var records = new VersionedRecords(new RecordSet(valueBytes), count);
        Dataset dataset = Dataset.For(type, valueBytes, count);
        IPointTarget target = dataset.Open(
            type,
            open: path => PointTargets.Open(type, path),
            load: opened => opened.Load(records.Records.Records(0, count)),
            verify: opened => records.Adopt(key => opened.Get(key)));
        return new PreloadedTarget(type, dataset, records, target);
    }

    /// <summary>
    /// A benchmark's global cleanup: fails the case when any key does not hold the version written last, and closes the
    /// target and its dataset either way; nothing to do when the setup failed before opening.
    /// </summary>
    public static void CloseChecked(PreloadedTarget? preloaded)
    {
        if (preloaded is not null)
        {
            Dataset.CloseChecked(preloaded._dataset, preloaded._type, preloaded.Records, preloaded.Target, key => preloaded.Target.Get(key));
        }
    }
}
