namespace KvBench.Evaluation.Workload;

/// <summary>How far one load has come, for a progress bar.</summary>
/// <param name="Label">What is loading, for example "LMDB: 1,000,000 records".</param>
/// <param name="Done">Records written so far.</param>
/// <param name="Total">Records this load writes.</param>
public sealed record LoadStatus(string Label, long Done, long Total)
{
    /// <summary>
    /// The <see cref="IProgress{T}"/> of records that <see cref="RecordSet.Load(Core.IKeyValueStore, long, long, int, IProgress{long}?, ulong)"/>
    /// reports to, relayed to <paramref name="sink"/> as this load's status; <see langword="null"/> when nobody listens.
    /// </summary>
    public static IProgress<long>? Relay(IProgress<LoadStatus>? sink, string label, long alreadyDone, long total) =>
        sink is null ? null : new RelayProgress(done => sink.Report(new LoadStatus(label, alreadyDone + done, total)));

    /// <summary>Reports synchronously on the loading thread: <see cref="Progress{T}"/> would post every batch to the thread pool.</summary>
    private sealed class RelayProgress(Action<long> report) : IProgress<long>
    {
        public void Report(long value) => report(value);
    }
}
